/**
 * Review 6 of the pages' area (simulator, romaneio, dashboard, client).
 *
 * The romaneio reader's date rule of 0833f92 (a year OCR broke, "20 26", is no date) refused any
 * two-digit year followed by a pair of digits that is not an "hh:mm" time: "05/08/26 12 cabeças"
 * (a table row: date, then the lot or the head count) or "05/08/26 14.32" lost the date, and with
 * it every reference price of the comparison. Only a two-digit year that is a century ("20", "19")
 * can be the first half of a split year.
 */
import { describe, expect, it } from "vitest";
import { datasNaLinha } from "../../pipeline/romaneio/numeros.ts";

const datas = (l: string) => datasNaLinha(l).map((d) => d.data);

describe("romaneio dates with a two-digit year followed by a number", () => {
  it("a whole two-digit year stays a date whatever number follows it", () => {
    expect(datas("Abate 05/08/26 12 cabeças")).toEqual(["2026-08-05"]);
    expect(datas("Emissão 05/08/26 14.32")).toEqual(["2026-08-05"]);
    expect(datas("05.08.26 10 animais")).toEqual(["2026-08-05"]);
    expect(datas("05/08/26 14:32")).toEqual(["2026-08-05"]);
  });

  it("a century split from its year is still no date, never 2020", () => {
    for (const l of ["Data do abate: 22/09/20 26", "22/09/2O 26", "22/09/20Z6", "22/09/19 99"]) expect(datas(l), l).toEqual([]);
    // a real two-digit 2020 followed by a time
    expect(datas("22/09/20 14:32")).toEqual(["2020-09-22"]);
  });
});
