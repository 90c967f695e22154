package org.jpir.api.v1;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.MethodDescriptor;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The generated API is what the .proto file says: the service's full name and its five unary
 * methods, a query's bytes carried unchanged, and a malformed message refused by the parser.
 */
class ApiContractTest {
  @Test
  void serviceHasTheFiveUnaryMethodsUnderItsVersionedName() {
    assertEquals("jpir.v1.PirService", PirServiceGrpc.SERVICE_NAME);
    List<String> names = PirServiceGrpc.getServiceDescriptor().getMethods().stream()
        .map(MethodDescriptor::getBareMethodName).sorted().collect(Collectors.toList());
    assertEquals(List.of("Answer", "DeleteKeys", "GetConfig", "KeyStatus", "UploadKeys"), names);
    for (MethodDescriptor<?, ?> m : PirServiceGrpc.getServiceDescriptor().getMethods()) {
      assertEquals(MethodDescriptor.MethodType.UNARY, m.getType(), m.getFullMethodName());
    }
  }

  @Test
  void queryBytesRoundTripUnchanged() throws Exception {
    byte[] body = new byte[300];
    for (int i = 0; i < body.length; i++) {
      body[i] = (byte) (i * 31);
    }
    AnswerRequest r = AnswerRequest.newBuilder().setDatabase("db")
        .addQueries(Query.newBuilder().setRequestId("r-1").setConfigId("c")
            .setQuery(ByteString.copyFrom(body)))
        .build();
    AnswerRequest back = AnswerRequest.parseFrom(r.toByteArray());
    assertEquals("db", back.getDatabase());
    assertEquals("r-1", back.getQueries(0).getRequestId());
    assertArrayEquals(body, back.getQueries(0).getQuery().toByteArray());
  }

  @Test
  void truncatedMessageIsRefusedByTheParser() {
    byte[] wire = AnswerRequest.newBuilder().setDatabase("a-database-name").build().toByteArray();
    byte[] cut = java.util.Arrays.copyOf(wire, wire.length - 3);
    assertThrows(InvalidProtocolBufferException.class, () -> AnswerRequest.parseFrom(cut));
  }
}
