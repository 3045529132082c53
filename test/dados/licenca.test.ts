/**
 * LICENSE and CITATION.cff at the root are what `npm run gerar` writes (pipeline/render/licenca.ts) from the
 * catalogue's sources (so a source's new terms cannot leave them behind), and CITATION.cff is
 * Citation File Format 1.2.0 with the keys the format requires.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO_ROOT } from "../../pipeline/config.ts";
import { PROJECT_URL, SITE_URL } from "../../pipeline/domain/site.ts";
import { citacaoCff, licencaTexto } from "../../pipeline/render/licenca.ts";
import { SOURCES } from "../../pipeline/sources/index.ts";

const REGERAR = "rode npm run gerar";

const ler = (f: string) => readFileSync(`${REPO_ROOT}/${f}`, "utf8");

describe("LICENSE", () => {
  it("is the one written from the sources' terms", () => {
    expect(ler("LICENSE"), `LICENSE desatualizado; ${REGERAR}`).toBe(licencaTexto(SOURCES));
  });

  it("licenses the compilation and the code under CC BY 4.0 with the legal code, and names every source's terms", () => {
    const t = ler("LICENSE");
    expect(t).toContain("CC-BY-4.0");
    expect(t).toMatch(/https:\/\/creativecommons\.org\/licenses\/by\/4\.0\/legalcode/);
    for (const s of SOURCES) {
      expect(t).toContain(s.nome);
      expect(t).toContain(s.termos.texto);
      expect(t).toContain(s.termos.url);
    }
  });
});

describe("CITATION.cff", () => {
  const cff = parse(ler("CITATION.cff")) as Record<string, unknown>;

  it("is the one written from the catalogue", () => {
    expect(ler("CITATION.cff"), `CITATION.cff desatualizado; ${REGERAR}`).toBe(citacaoCff(SOURCES));
  });

  it("has the keys CFF 1.2.0 requires, as a dataset under CC-BY-4.0 at this repository's URLs", () => {
    expect(cff["cff-version"]).toBe("1.2.0");
    for (const k of ["message", "title", "authors"]) expect(cff[k], k).toBeTruthy();
    expect(Array.isArray(cff.authors) && cff.authors.length > 0).toBe(true);
    for (const a of cff.authors as Array<Record<string, unknown>>) expect(typeof a.name === "string" || typeof a["family-names"] === "string").toBe(true);
    expect(cff.type).toBe("dataset");
    expect(cff.license).toBe("CC-BY-4.0");
    expect(cff["repository-code"]).toBe(PROJECT_URL);
    expect(cff.url).toBe(SITE_URL);
  });

  it("references every source with its terms", () => {
    const refs = cff.references as Array<Record<string, unknown>>;
    expect(refs.map((r) => r.title)).toEqual(SOURCES.map((s) => s.nome));
    for (const r of refs) {
      expect(r.type).toBe("data");
      expect(Array.isArray(r.authors) && r.authors.length > 0).toBe(true);
    }
  });
});
