/** The evaluation keys the service holds ({@link org.jpir.service.keys.ServiceKeys}). */
package org.jpir.service.keys;
