/** The databases served, their versions and config ids. */
package org.jpir.service.db;
