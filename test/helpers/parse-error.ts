import { expect } from "vitest";
import { ParseError } from "../../pipeline/domain/errors.ts";

/** The ParseError a parse throws; fails the test when it throws anything else or nothing. */
export function parseError(fn: () => unknown): ParseError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ParseError);
    return e as ParseError;
  }
  throw new Error("esperava ParseError");
}
