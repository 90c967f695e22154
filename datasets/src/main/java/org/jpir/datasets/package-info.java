/** Record sources, keyword lookup and the stored database format (no Spark). */
package org.jpir.datasets;
