package org.jpir.core.client;

import java.util.Optional;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.QueryFileName;
import org.jpir.core.wire.Wire;

/**
 * A client of one database, classic ({@link PirClient}) or compact ({@link CompactClient}),
 * behind the same calls: the wire form of a query for a record index, the record from an
 * answer, and the keys it uploads once. {@link PirQueryClients} makes the one a preset needs.
 * The secret key never leaves an implementation; implementations are not thread-safe.
 */
public interface PirQueryClient {
  /** The database's preset (the server's parameters): every answer must be of this preset. */
  Params params();

  /** The layout of the database this client's queries address. */
  Geometry geometry();

  /**
   * Whether this client's queries are compact: the server can answer them only with the
   * evaluation keys of {@link #evaluationKeysMessage}; classic queries need no uploaded key.
   */
  boolean compact();

  /** How many records the database holds: valid indices are {@code 0 .. recordCount() - 1}. */
  default long recordCount() {
    return geometry().recordCount();
  }

  /** The file name a query with random id {@code id} takes in a query directory. */
  default QueryFileName queryFileName(String id) {
    return new QueryFileName(id, compact());
  }

  /**
   * The wire form of a fresh query for record {@code index} (new randomness every call).
   *
   * @throws IllegalArgumentException when {@code index} is outside the database
   * @throws IllegalStateException for a compact client that has neither generated ({@link
   *     #evaluationKeysMessage}) nor adopted ({@link #useEvaluationKeysMessage}) its keys
   */
  byte[] queryMessage(long index);

  /**
   * The bytes of record {@code index} from the answer to its query.
   *
   * @throws IllegalArgumentException when the answer is of another preset or shape
   */
  byte[] decode(Answer answer, long index);

  /**
   * The bytes of record {@code index} from an answer's wire form, read without trusting it.
   *
   * @throws IllegalArgumentException when the message is malformed or of another preset or shape
   */
  default byte[] decodeMessage(byte[] answer, long index) {
    return decode(Wire.readAnswer(answer, params(), geometry()), index);
  }

  /** The most bytes a well-formed answer to this client's queries takes (a bound for reads). */
  default long maxAnswerBytes() {
    return Wire.maxAnswerBytes(params(), geometry());
  }

  /**
   * The wire form of this client's evaluation keys, uploaded once under its client id; generated
   * on the first call unless adopted. Empty for a classic client, which uploads no keys.
   */
  Optional<byte[]> evaluationKeysMessage();

  /**
   * Adopts the evaluation keys (wire form) this client generated and uploaded earlier, so that
   * its queries name them; a compact client started again must do this before querying.
   *
   * @throws IllegalArgumentException for a classic client, or keys of another client, preset or
   *     depth
   */
  void useEvaluationKeysMessage(byte[] evaluationKeys);

  /**
   * The wire form of the plane-packing key uploaded beside the evaluation keys (answers to records
   * spanning planes then share one mask); empty when there is none to upload: a classic client,
   * or a geometry of one plane or more than {@link PlanePacking#MAX_PLANES}.
   */
  Optional<byte[]> packingKeyMessage();
}
