/**
 * How old a published day is, and when it is too old: the one rule status.json (run/status.ts)
 * and the dashboard's script (serve/web) both apply, so "stale" and "desatualizado" never
 * disagree. Bundled into the browser: no Node imports here.
 *
 * The catalogue's pages publish on business days (PageDef.diasUteis), so their age is counted in
 * dias úteis: Monday to Friday, less Brazil's national holidays and the days the markets close
 * with them. CEPEA and Scot publish nothing on those days, B3 does not trade, and counting them
 * called a source stale over every Christmas, Carnival and Easter it simply did not publish.
 *
 * Counted as no business day:
 * - the fixed national holidays (Lei 662/1949, 6.802/1980, 14.759/2023): 01/01, 21/04, 01/05,
 *   07/09, 12/10, 02/11, 15/11, 25/12, and 20/11 from 2024 on (Consciência Negra);
 * - the movable ones, from Easter: Carnival Monday and Tuesday (ponto facultativo by law, but B3
 *   is closed and the sources do not publish), Good Friday and Corpus Christi.
 * Counted as business days: Ash Wednesday (B3 opens at 13h and the day has its indicator), 24/12
 * and 31/12, and state or municipal holidays (São Paulo's 25/01 and 09/07). A day counted that a
 * source did not publish can only make a source stale a day early, never hide an outage.
 */

/** How a source's age is counted: status.json's `contagem_idade`. */
export type ContagemIdade = "dias_uteis" | "dias_corridos";

const DIA_MS = 86_400_000;

function utc(dia: string): number {
  return Date.UTC(+dia.slice(0, 4), +dia.slice(5, 7) - 1, +dia.slice(8, 10));
}

function iso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whole calendar days from a to b (YYYY-MM-DD; a longer ISO string is cut to its day). */
export function diasCorridos(a: string, b: string): number {
  return Math.round((utc(b.slice(0, 10)) - utc(a.slice(0, 10))) / DIA_MS);
}

/**
 * Easter Sunday of a Gregorian year (the anonymous algorithm of Meeus, Jones and Butcher):
 * 2024 → "2024-03-31", 2025 → "2025-04-20", 2026 → "2026-04-05".
 */
export function pascoa(ano: number): string {
  const a = ano % 19;
  const b = Math.floor(ano / 100);
  const c = ano % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const mes = Math.floor((h + l - 7 * m + 114) / 31);
  const dia = ((h + l - 7 * m + 114) % 31) + 1;
  return `${ano}-${String(mes).padStart(2, "0")}-${String(dia).padStart(2, "0")}`;
}

const FIXOS: ReadonlyArray<readonly [string, string, number?]> = [
  ["01-01", "Confraternização Universal"],
  ["04-21", "Tiradentes"],
  ["05-01", "Dia do Trabalho"],
  ["09-07", "Independência do Brasil"],
  ["10-12", "Nossa Senhora Aparecida"],
  ["11-02", "Finados"],
  ["11-15", "Proclamação da República"],
  // national since Lei 14.759/2023
  ["11-20", "Dia Nacional de Zumbi e da Consciência Negra", 2024],
  ["12-25", "Natal"],
];

const cache = new Map<number, ReadonlyMap<string, string>>();

/** The days of a year on which the catalogue's sources do not publish, by name: "2026-02-16" → "Carnaval". */
export function feriadosNacionais(ano: number): ReadonlyMap<string, string> {
  let m = cache.get(ano);
  if (m) return m;
  const p = utc(pascoa(ano));
  const movel = (dias: number) => iso(p + dias * DIA_MS);
  const dias = new Map<string, string>();
  for (const [mmdd, nome, desde] of FIXOS) if (desde === undefined || ano >= desde) dias.set(`${ano}-${mmdd}`, nome);
  // Good Friday falls on 21/04 some years (2000): one day, the first name
  for (const [d, nome] of [
    [movel(-48), "Carnaval (segunda-feira)"],
    [movel(-47), "Carnaval (terça-feira)"],
    [movel(-2), "Sexta-feira Santa"],
    [movel(60), "Corpus Christi"],
  ] as const) {
    if (!dias.has(d)) dias.set(d, nome);
  }
  m = new Map([...dias].sort(([a], [b]) => (a < b ? -1 : 1)));
  cache.set(ano, m);
  return m;
}

function fimDeSemana(ms: number): boolean {
  const d = new Date(ms).getUTCDay();
  return d === 0 || d === 6;
}

/** Monday to Friday and no national holiday. */
export function diaUtil(dia: string): boolean {
  return !fimDeSemana(utc(dia)) && !feriadosNacionais(+dia.slice(0, 4)).has(dia.slice(0, 10));
}

/** The business days after a up to and including b (0 when b is not after a). */
export function diasUteisEntre(a: string, b: string): number {
  const ia = utc(a.slice(0, 10));
  const total = diasCorridos(a, b);
  if (total <= 0) return 0;
  // Monday-to-Friday days in (a, b]: whole weeks, then the days left
  let n = Math.floor(total / 7) * 5;
  for (let i = Math.floor(total / 7) * 7 + 1; i <= total; i++) if (!fimDeSemana(ia + i * DIA_MS)) n++;
  const ib = ia + total * DIA_MS;
  for (let ano = +a.slice(0, 4); ano <= +b.slice(0, 4); ano++) {
    for (const d of feriadosNacionais(ano).keys()) {
      const t = utc(d);
      if (t > ia && t <= ib && !fimDeSemana(t)) n--;
    }
  }
  return n;
}

/** A day's age on `hoje`, counted as its source counts it. */
export function idadeNaContagem(data: string, hoje: string, contagem: ContagemIdade): number {
  return contagem === "dias_uteis" ? diasUteisEntre(data, hoje) : Math.max(0, diasCorridos(data, hoje));
}

/** Past the source's limit: status.json's `stale`, the dashboard's "desatualizado". */
export function passouDoLimite(data: string, hoje: string, limite: number, contagem: ContagemIdade): boolean {
  return idadeNaContagem(data, hoje, contagem) > limite;
}

/**
 * A stale source's reason, with no day count (it would change status.json every day): "último
 * dado de 25/09/2026, mais de 3 dias úteis atrás".
 */
export function motivoDesatualizada(data: string, limite: number, contagem: ContagemIdade): string {
  const [y, m, d] = data.slice(0, 10).split("-");
  return `último dado de ${d}/${m}/${y}, mais de ${limite} ${contagem === "dias_uteis" ? "dias úteis" : "dias"} atrás`;
}
