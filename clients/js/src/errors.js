/**
 * The errors the library throws.  Each carries `code`, the SQLSTATE the
 * server raises for the same mistake, so that code handling both can share
 * its checks.
 * @module
 */

/** The base class of every error of this library. */
export class BloomSketchError extends Error {
  /** @param {string} message @param {string} code */
  constructor(message, code) {
    super(message);
    this.name = this.constructor.name;
    /** SQLSTATE of the server's error for the same case. */
    this.code = code;
  }
}

/** Bytes or text that are not a valid value (server: 22P03 binary, 22P02 text). */
export class FormatError extends BloomSketchError {
  /** @param {string} message @param {string} [code] */
  constructor(message, code = '22P03') {
    super(message, code);
  }
}

/** A parameter out of range, or a value of another family (server: 22023). */
export class ParameterError extends BloomSketchError {
  /** @param {string} message */
  constructor(message) {
    super(message, '22023');
  }
}

/** Operands that do not combine: shapes, seeds or families differ (server: 22000). */
export class MismatchError extends BloomSketchError {
  /** @param {string} message */
  constructor(message) {
    super(message, '22000');
  }
}

/** A family or value this library does not hash (server: 0A000 for unhashable types). */
export class UnsupportedError extends BloomSketchError {
  /** @param {string} message */
  constructor(message) {
    super(message, '0A000');
  }
}

/** Larger than the largest filter, sketch or summary (server: 54000). */
export class TooLargeError extends BloomSketchError {
  /** @param {string} message */
  constructor(message) {
    super(message, '54000');
  }
}
