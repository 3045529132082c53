import { describe, expect, it } from "vitest";
import { copia, primeiraLinha } from "../pipeline/domain/texto.ts";

describe("primeiraLinha", () => {
  it("is the text's first line without its newline, and empty when the text has no newline or starts with one", () => {
    const csv = `data,praca,valor,unidade\n${"2026-09-03,Três Lagoas,301.50,@\n".repeat(1000)}`;
    expect(primeiraLinha(csv)).toBe("data,praca,valor,unidade");
    expect(primeiraLinha("\ufeffdata;valor\r\n2026-09-03;71,06\r\n")).toBe("\ufeffdata;valor\r");
    expect(primeiraLinha("data,valor")).toBe("");
    expect(primeiraLinha("\ndata")).toBe("");
  });

  it("copies a string into one equal to it", () => {
    const longo = "x".repeat(100_000);
    expect(copia(longo.slice(10, 60))).toBe("x".repeat(50));
    expect(copia('aspas " e \\ barra')).toBe('aspas " e \\ barra');
  });
});
