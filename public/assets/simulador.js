/* Gerado por pipeline/serve/assets.ts a partir de pipeline/; não edite. */
var __defProp = Object.defineProperty;
var __defNormalProp = (obj, key, value) => key in obj ? __defProp(obj, key, { enumerable: true, configurable: true, writable: true, value }) : obj[key] = value;
var __publicField = (obj, key, value) => __defNormalProp(obj, typeof key !== "symbol" ? key + "" : key, value);

// pipeline/domain/idade.ts
var DIA_MS = 864e5;
function utc(dia) {
  return Date.UTC(+dia.slice(0, 4), +dia.slice(5, 7) - 1, +dia.slice(8, 10));
}
function iso(ms) {
  return new Date(ms).toISOString().slice(0, 10);
}
function diasCorridos(a, b) {
  return Math.round((utc(b.slice(0, 10)) - utc(a.slice(0, 10))) / DIA_MS);
}
function pascoa(ano) {
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
  const dia = (h + l - 7 * m + 114) % 31 + 1;
  return `${ano}-${String(mes).padStart(2, "0")}-${String(dia).padStart(2, "0")}`;
}
var FIXOS = [
  ["01-01", "Confraternização Universal"],
  ["04-21", "Tiradentes"],
  ["05-01", "Dia do Trabalho"],
  ["09-07", "Independência do Brasil"],
  ["10-12", "Nossa Senhora Aparecida"],
  ["11-02", "Finados"],
  ["11-15", "Proclamação da República"],
  // national since Lei 14.759/2023
  ["11-20", "Dia Nacional de Zumbi e da Consciência Negra", 2024],
  ["12-25", "Natal"]
];
var cache = /* @__PURE__ */ new Map();
function feriadosNacionais(ano) {
  let m = cache.get(ano);
  if (m) return m;
  const p = utc(pascoa(ano));
  const movel = (dias2) => iso(p + dias2 * DIA_MS);
  const dias = /* @__PURE__ */ new Map();
  for (const [mmdd, nome, desde] of FIXOS) if (desde === void 0 || ano >= desde) dias.set(`${ano}-${mmdd}`, nome);
  for (const [d, nome] of [
    [movel(-48), "Carnaval (segunda-feira)"],
    [movel(-47), "Carnaval (terça-feira)"],
    [movel(-2), "Sexta-feira Santa"],
    [movel(60), "Corpus Christi"]
  ]) {
    if (!dias.has(d)) dias.set(d, nome);
  }
  m = new Map([...dias].sort(([a], [b]) => a < b ? -1 : 1));
  cache.set(ano, m);
  return m;
}
function fimDeSemana(ms) {
  const d = new Date(ms).getUTCDay();
  return d === 0 || d === 6;
}
function diasUteisEntre(a, b) {
  const ia = utc(a.slice(0, 10));
  const total = diasCorridos(a, b);
  if (total <= 0) return 0;
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

// pipeline/domain/products.ts
var UNIDADE_INFO = {
  "@": { nome: "arroba (15 kg de carcaça)", sufixo: "/@", por: "por arroba", descricao: "arroba, 15 kg de carcaça" },
  kg: { nome: "quilo", sufixo: "/kg", por: "por kg", descricao: "quilo (de peso vivo no boi do RS e na reposição, de carcaça ou de produto nos outros: a região de cada série diz)" },
  sc60kg: { nome: "saca de 60 kg", sufixo: "/sc 60 kg", por: "por saca de 60 kg", descricao: "saca de 60 kg" },
  cabeca: { nome: "cabeça", sufixo: "/cabeça", por: "por cabeça", descricao: "por cabeça" },
  sc50kg: { nome: "saca de 50 kg", sufixo: "/sc 50 kg", por: "por saca de 50 kg", descricao: "saca de 50 kg" },
  t: { nome: "tonelada", sufixo: "/t", por: "por tonelada", descricao: "tonelada" },
  cx40_8kg: { nome: "caixa de 40,8 kg", sufixo: "/cx 40,8 kg", por: "por caixa de 40,8 kg", descricao: "caixa de 40,8 kg (laranja)" },
  // CEPEA's cotton indicator is in centavos of real per pound: "valor" is then centavos, not reais
  ct_lb: { nome: "centavos de real por libra-peso", sufixo: " centavos de R$/lb", por: "por libra-peso", descricao: "centavos de real por libra-peso (algodão)", emCentavos: true }
};
var PRODUTOS_DECLARADOS = {
  boi_gordo: {
    nome: "Boi gordo",
    tipo: "gado_arroba",
    unidade: "@",
    faixa: { "@": [100, 1e3], kg: [4, 60] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5,
    agregado: { chave: "boi_gordo_cepea_sp", rotulo: "boi gordo SP", praca: { chave: "boi_gordo_praca", texto: "Estado de São Paulo (Indicador CEPEA/ESALQ)" } },
    agregadoUf: { chave: "boi_gordo_uf", rotulo: "boi" }
  },
  vaca_gorda: {
    nome: "Vaca gorda",
    tipo: "gado_arroba",
    unidade: "@",
    faixa: { "@": [100, 1e3], kg: [4, 60] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5,
    agregado: { chave: "vaca_gorda", rotulo: "vaca gorda SP" },
    agregadoUf: { chave: "vaca_gorda_uf", rotulo: "vaca gorda" }
  },
  soja: {
    nome: "Soja",
    tipo: "grao_saca",
    unidade: "sc60kg",
    faixa: { sc60kg: [40, 500] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1,
    agregado: { chave: "soja", rotulo: "soja Paranaguá" }
  },
  milho: {
    nome: "Milho",
    tipo: "grao_saca",
    unidade: "sc60kg",
    faixa: { sc60kg: [15, 250] },
    saltoMaximoPct: 12,
    revisaoMaximaPct: 1,
    agregado: { chave: "milho", rotulo: "milho Campinas" }
  },
  bezerro: {
    nome: "Bezerro",
    tipo: "cabeca",
    unidade: "cabeca",
    // CEPEA's MS indicator, per head, only: Datagro's per-kg calf is bezerro_reposicao, so that
    // `bezerro` has one unit and its national series answers for MS
    faixa: { cabeca: [500, 15e3] },
    saltoMaximoPct: 12,
    revisaoMaximaPct: 1.5,
    agregado: { chave: "bezerro_ms", rotulo: "bezerro MS" }
  },
  // ---- Scot Consultoria's other tables ----
  novilha_gorda: {
    nome: "Novilha gorda",
    tipo: "gado_arroba",
    unidade: "@",
    // as boi and vaca gorda: same praças, same units (RS per kg of live weight); the recorded
    // table (05/08/2026) runs 286,50–341,00 R$/@ and 12,10–12,20 R$/kg
    faixa: { "@": [100, 1e3], kg: [4, 60] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5
  },
  boi_china: {
    // Scot's "Boi China a Prazo": steers for China (at most four permanent teeth, under 30
    // months), a 30-day price only; recorded 05/08/2026: 328,00–355,00 R$/@
    nome: "Boi China (a prazo)",
    prazo: "a prazo (30 dias)",
    tipo: "gado_arroba",
    unidade: "@",
    faixa: { "@": [100, 1e3] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5
  },
  // ---- reposição (Datagro) ----
  // Datagro's reposição Nelore macho, R$ per kg of live weight by state (sources/datagro.ts): the
  // recorded page (26/01–06/02/2026) runs 11,76–25,13 R$/kg; the range is the per-kg cattle
  // range; the state quotes move up to 12,84 % in a day there, so jumps up to 15 %; revisions
  // as the bezerro's (the series repeat these bounds: LIMITES_REPOSICAO in sources/datagro.ts)
  bezerro_desmama: {
    // "Desmama": the weaned calf, the youngest category
    nome: "Bezerro de desmama",
    tipo: "sem_simulacao",
    unidade: "kg",
    faixa: { kg: [4, 60] },
    saltoMaximoPct: 15,
    revisaoMaximaPct: 1.5
  },
  bezerro_reposicao: {
    // Datagro's "Bezerro" column, per kg of live weight by state: not the national bezerro
    // (CEPEA's MS indicator, per head), so a product of its own, like the other reposição columns
    nome: "Bezerro (reposição)",
    tipo: "sem_simulacao",
    unidade: "kg",
    faixa: { kg: [4, 60] },
    saltoMaximoPct: 15,
    revisaoMaximaPct: 1.5
  },
  garrote: {
    // the young steer, between bezerro and boi magro
    nome: "Garrote",
    tipo: "sem_simulacao",
    unidade: "kg",
    faixa: { kg: [4, 60] },
    saltoMaximoPct: 15,
    revisaoMaximaPct: 1.5
  },
  boi_magro: {
    // the lean steer, ready for finishing
    nome: "Boi magro",
    tipo: "sem_simulacao",
    unidade: "kg",
    faixa: { kg: [4, 60] },
    saltoMaximoPct: 15,
    revisaoMaximaPct: 1.5
  },
  // ---- CEPEA's other indicators ----
  // Ranges: the recorded pages' own values (test/fixtures/cepea/*.html, 17/08–04/09/2026) with
  // wide margins (about a third below the lowest to three times the highest), so they catch a
  // misread column or unit, not the market. Jumps: the largest daily move on the page, times 3 or
  // more. Revisions: CEPEA revises by centavos, as for its other indicators.
  boi_gordo_prazo: {
    // "Boi Gordo - Média a Prazo Estado de São Paulo": 346,21–351,65 R$/@ (the cash indicator's range)
    nome: "Boi gordo a prazo",
    prazo: "média a prazo (CDI de 30 dias)",
    tipo: "sem_simulacao",
    unidade: "@",
    faixa: { "@": [100, 1e3] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5
  },
  trigo: {
    // PR 1.419,11–1.457,92 and RS 1.318,09–1.359,38 R$/t; largest daily move 1,75%
    nome: "Trigo",
    tipo: "sem_simulacao",
    unidade: "t",
    faixa: { t: [400, 5e3] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5
  },
  arroz: {
    // 58% inteiros: 73,81–79,07 R$/sc 50 kg; largest daily move 2,91%
    nome: "Arroz em casca (58% de grãos inteiros)",
    tipo: "sem_simulacao",
    unidade: "sc50kg",
    faixa: { sc50kg: [20, 300] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5
  },
  arroz_alto_rendimento: {
    // 59% a 62% inteiros ("alto rendimento" de grãos inteiros; series ids take no digits:
    // ^[a-z_]+ in the schemas): 75,43–80,16 R$/sc 50 kg; largest daily move 2,40%
    nome: "Arroz em casca (59% a 62% de grãos inteiros)",
    tipo: "sem_simulacao",
    unidade: "sc50kg",
    faixa: { sc50kg: [20, 300] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5
  },
  cafe_arabica: {
    // 1.659,93–1.826,58 R$/sc 60 kg; coffee is volatile (-3,22% in one day on the page)
    nome: "Café arábica",
    tipo: "grao_saca",
    unidade: "sc60kg",
    faixa: { sc60kg: [300, 6e3] },
    saltoMaximoPct: 15,
    revisaoMaximaPct: 1.5
  },
  cafe_robusta: {
    // 976,71–1.075,11 R$/sc 60 kg; largest daily move 2,10%
    nome: "Café robusta",
    tipo: "grao_saca",
    unidade: "sc60kg",
    faixa: { sc60kg: [200, 4e3] },
    saltoMaximoPct: 15,
    revisaoMaximaPct: 1.5
  },
  algodao: {
    // centavos de R$ per pound: 420,68–444,82; largest daily move 1,91%
    nome: "Algodão em pluma",
    tipo: "sem_simulacao",
    unidade: "ct_lb",
    faixa: { ct_lb: [100, 1500] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5
  },
  acucar_cristal_sp: {
    // 99,94–116,79 R$/sc 50 kg (up 24% in the month before); largest daily move 2,42%
    nome: "Açúcar cristal branco (SP)",
    tipo: "sem_simulacao",
    unidade: "sc50kg",
    faixa: { sc50kg: [30, 400] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5
  },
  acucar_santos: {
    // 122,13–131,07 R$/sc 50 kg; largest daily move -3,69%
    nome: "Açúcar cristal (Santos, FOB)",
    tipo: "sem_simulacao",
    unidade: "sc50kg",
    faixa: { sc50kg: [30, 400] },
    saltoMaximoPct: 12,
    revisaoMaximaPct: 1.5
  },
  laranja_industria: {
    // 30,73–31,30 R$/cx 40,8 kg; CEPEA once replaced a week of these values (note of 09/06/2022)
    nome: "Laranja indústria",
    tipo: "sem_simulacao",
    unidade: "cx40_8kg",
    faixa: { cx40_8kg: [5, 150] },
    saltoMaximoPct: 15,
    revisaoMaximaPct: 2
  },
  laranja_pera: {
    // 30,66–31,97 R$/cx 40,8 kg; largest daily move -3,13%
    nome: "Laranja pera in natura",
    tipo: "sem_simulacao",
    unidade: "cx40_8kg",
    faixa: { cx40_8kg: [5, 150] },
    saltoMaximoPct: 15,
    revisaoMaximaPct: 2
  },
  laranja_industria_precoce: {
    // 24,60–26,00 R$/cx 40,8 kg; largest daily move 5,39%
    nome: "Laranja indústria precoce",
    tipo: "sem_simulacao",
    unidade: "cx40_8kg",
    faixa: { cx40_8kg: [5, 150] },
    saltoMaximoPct: 15,
    revisaoMaximaPct: 2
  },
  frango_congelado: {
    // 7,17–7,61 R$/kg (wholesale); largest daily move 2,45%
    nome: "Frango congelado",
    tipo: "sem_simulacao",
    unidade: "kg",
    faixa: { kg: [2, 30] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5
  },
  frango_resfriado: {
    // 7,18–7,61 R$/kg (wholesale); largest daily move 2,59%
    nome: "Frango resfriado",
    tipo: "sem_simulacao",
    unidade: "kg",
    faixa: { kg: [2, 30] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5
  },
  suino_vivo: {
    // 4,42–5,02 R$/kg live weight by state (the page's monthly table: 4,58–9,26 in a year)
    nome: "Suíno vivo",
    tipo: "sem_simulacao",
    unidade: "kg",
    faixa: { kg: [1.5, 25] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5
  },
  suino_carcaca: {
    // carcaça especial, 7,16–7,38 R$/kg (wholesale, Grande São Paulo); largest daily move -2,05%
    nome: "Carcaça suína especial",
    tipo: "sem_simulacao",
    unidade: "kg",
    faixa: { kg: [2, 35] },
    saltoMaximoPct: 10,
    revisaoMaximaPct: 1.5
  }
};
var PRODUTOS = Object.keys(PRODUTOS_DECLARADOS);
var PRODUTO_INFO = { ...PRODUTOS_DECLARADOS };
function prazoDoValor(p) {
  return (isProduto(p) ? PRODUTO_INFO[p].prazo : void 0) ?? "à vista";
}
function isProduto(value) {
  return PRODUTOS.includes(value);
}
function nomesDoTipo(tipo) {
  const nomes = PRODUTOS.filter((p) => PRODUTO_INFO[p].tipo === tipo).map((p) => PRODUTO_INFO[p].nome.toLowerCase());
  return nomes.length <= 1 ? nomes[0] ?? "" : `${nomes.slice(0, -1).join(", ")} e ${nomes[nomes.length - 1]}`;
}

// pipeline/domain/money.ts
var BRL_NUMBER = /^-?\d{1,3}(\.\d{3})*(,\d{1,2})?$|^-?\d+(,\d{1,2})?$/;
function parseBRDecimal(text) {
  const s = text.replace(/\u00a0/g, " ").trim().replace(/^R\$\s*/, "");
  if (!BRL_NUMBER.test(s)) return null;
  const negative = s.startsWith("-");
  const [intPart = "0", fracPart = ""] = s.replace(/^-/, "").replace(/\./g, "").split(",");
  const hundredths = Number(intPart) * 100 + Number(fracPart.padEnd(2, "0"));
  if (!Number.isSafeInteger(hundredths)) return null;
  return negative ? -hundredths : hundredths;
}
function fromHundredths(h) {
  return h / 100;
}
function toHundredths(value) {
  const h = Math.round(value * 100);
  if (Math.abs(h - value * 100) > 1e-6) {
    throw new RangeError(`valor com mais de duas casas decimais: ${value}`);
  }
  return h;
}
var brl = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
function formatBRL(value) {
  return `R$ ${brl.format(value)}`;
}

// pipeline/domain/ufs.ts
var UFS = {
  AC: "Acre",
  AL: "Alagoas",
  AP: "Amapá",
  AM: "Amazonas",
  BA: "Bahia",
  CE: "Ceará",
  DF: "Distrito Federal",
  ES: "Espírito Santo",
  GO: "Goiás",
  MA: "Maranhão",
  MT: "Mato Grosso",
  MS: "Mato Grosso do Sul",
  MG: "Minas Gerais",
  PA: "Pará",
  PB: "Paraíba",
  PR: "Paraná",
  PE: "Pernambuco",
  PI: "Piauí",
  RJ: "Rio de Janeiro",
  RN: "Rio Grande do Norte",
  RS: "Rio Grande do Sul",
  RO: "Rondônia",
  RR: "Roraima",
  SC: "Santa Catarina",
  SP: "São Paulo",
  SE: "Sergipe",
  TO: "Tocantins"
};
var ALL_UFS = Object.keys(UFS).sort();
function isUF(value) {
  return Object.prototype.hasOwnProperty.call(UFS, value);
}
function normalizeUF(value) {
  const v = value.trim().toUpperCase();
  return isUF(v) ? v : null;
}

// pipeline/simulator/simulator.ts
var FUNRURAL_PADRAO = {
  /** in hundredths of a percent: 150 = 1,50% */
  aliquotaCentesimos: 150,
  aliquota_pct: 1.5,
  componentes: [
    { nome: "Contribuição previdenciária (INSS)", aliquota_pct: 1.2, base_legal: "Lei 8.212/1991, art. 25, I, com a redação da Lei 13.606/2018" },
    { nome: "RAT/GILRAT", aliquota_pct: 0.1, base_legal: "Lei 8.212/1991, art. 25, II" },
    { nome: "SENAR", aliquota_pct: 0.2, base_legal: "Lei 9.528/1997, art. 6º" }
  ],
  base_legal: "Produtor rural pessoa física: 1,2% (INSS, Lei 8.212/1991, art. 25, I, redação da Lei 13.606/2018) + 0,1% (RAT, art. 25, II) + 0,2% (SENAR, Lei 9.528/1997, art. 6º) = 1,5% da receita bruta da venda. Pessoa jurídica: 2,05% (Lei 8.870/1994, art. 25). Quem optou por contribuir sobre a folha de salários (opção criada pela Lei 13.606/2018) paga só o SENAR (0,2%)."
};
var COLUNAS_PRECO = ["valor", "valor_30d", "funrural_avista", "funrural_30d", "senar_avista", "senar_30d"];
var COLUNA_INFO = {
  valor: { nome: "bruto, à vista", desconta: "nada" },
  valor_30d: { nome: "bruto, 30 dias", desconta: "nada" },
  funrural_avista: { nome: "à vista, com o Funrural já descontado pela fonte", desconta: "funrural" },
  funrural_30d: { nome: "30 dias, com o Funrural já descontado pela fonte", desconta: "funrural" },
  senar_avista: { nome: "à vista, sem Funrural e com só o SENAR (0,2%) descontado pela fonte", desconta: "senar" },
  senar_30d: { nome: "30 dias, sem Funrural e com só o SENAR (0,2%) descontado pela fonte", desconta: "senar" }
};
function nomeDaColuna(c, produto) {
  return c === "valor" ? `bruto, ${prazoDoValor(produto)}` : COLUNA_INFO[c].nome;
}
var DIAS_UTEIS_ATUAL = 3;
var KG_POR_ARROBA = 15n;
var LIMITES = {
  cabecas: [1, 1e5],
  pesoVivoKg: [30, 2e3],
  rendimentoPct: [30, 75],
  sacas: [0.01, 1e7],
  preco: [0.01, 1e5],
  funruralPct: [0, 10],
  comissaoPct: [0, 100],
  frete: [0, 1e8]
};
var CAMPOS = [
  "produto",
  "uf",
  "cabecas",
  "peso_vivo_kg",
  "rendimento_pct",
  "sacas",
  "preco",
  "coluna",
  "funrural_pct",
  "comissao_pct",
  "frete"
];
var CAMPOS_SIMULADOR = CAMPOS;
var ROTULOS = {
  produto: "Produto",
  uf: "Preço de qual estado",
  cabecas: "Número de cabeças",
  peso_vivo_kg: "Peso vivo médio por cabeça (kg)",
  rendimento_pct: "Rendimento de carcaça (%)",
  sacas: "Sacas de 60 kg",
  preco: "Preço por unidade (R$, opcional)",
  coluna: "Coluna de preço da fonte",
  funrural_pct: "Funrural (%)",
  comissao_pct: "Comissão (% do bruto)",
  frete: "Frete (R$, total)"
};
function rotulo(c) {
  return ROTULOS[c].replace(/, opcional\)$/, ")");
}
var MAX_CENTAVOS = 999999999999999n;
var SimulacaoForaDoLimite = class extends Error {
  constructor(erros) {
    super(erros.map((e) => e.mensagem).join("; "));
    __publicField(this, "erros", erros);
    this.name = "SimulacaoForaDoLimite";
  }
};
function lerDecimal(texto, casas) {
  let s = texto.trim().replace(/^R\$\s*/, "");
  if (/\s/.test(s)) {
    if (!/^-?\d{1,3}(\s\d{3})+([.,]\d{1,2})?$/.test(s)) return null;
    s = s.replace(/\s/g, "");
  }
  if (s === "" || s.length > 32) return null;
  let centesimos = parseBRDecimal(s);
  if (centesimos === null && /^-?\d+\.\d{1,2}$/.test(s)) centesimos = parseBRDecimal(s.replace(".", ","));
  if (centesimos === null) return null;
  if (casas === 2) return BigInt(centesimos);
  return centesimos % 100 === 0 ? BigInt(centesimos / 100) : null;
}
function divRound(a, b) {
  return (2n * a + b) / (2n * b);
}
function toNumber(scaled, casas) {
  return Number(scaled) / 10 ** casas;
}
function fmt(scaled, casas) {
  const neg = scaled < 0n;
  const abs = neg ? -scaled : scaled;
  const base = 10n ** BigInt(casas);
  const int = (abs / base).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  const frac = casas > 0 ? "," + (abs % base).toString().padStart(casas, "0") : "";
  return `${neg ? "-" : ""}${int}${frac}`;
}
function formatarReais(centavos) {
  return formatBRL(fromHundredths(Number(centavos)));
}
function faixa(campo, valor, casas, [min, max], unidade) {
  const lo = BigInt(Math.round(min * 10 ** casas));
  const hi = BigInt(Math.round(max * 10 ** casas));
  if (valor < 0n || valor === 0n && lo > 0n) {
    return { campo, mensagem: `${rotulo(campo)}: ${lo > 0n ? "deve ser maior que zero" : "não pode ser negativo"}` };
  }
  if (valor < lo || valor > hi) {
    return { campo, mensagem: `${rotulo(campo)}: deve estar entre ${fmt(lo, casas)} e ${fmt(hi, casas)}${unidade}` };
  }
  return null;
}
function validarEntrada(params, limites = LIMITES) {
  const erros = [];
  const get = (k) => {
    const v = params[k];
    return v === void 0 || v.trim() === "" ? void 0 : v;
  };
  const produtoTxt = get("produto");
  let produto = null;
  const simulaveis = PRODUTOS.filter((p) => PRODUTO_INFO[p].tipo !== "sem_simulacao");
  const lido = produtoTxt?.trim().toLowerCase();
  if (produtoTxt === void 0) erros.push({ campo: "produto", mensagem: `${rotulo("produto")}: obrigatório; válidos: ${simulaveis.join(", ")}` });
  else if (!PRODUTOS.includes(lido)) {
    erros.push({ campo: "produto", mensagem: `${rotulo("produto")}: "${produtoTxt}" não existe; válidos: ${simulaveis.join(", ")}` });
  } else if (!simulaveis.includes(lido)) {
    erros.push({ campo: "produto", mensagem: `${rotulo("produto")}: ${PRODUTO_INFO[lido].nome.toLowerCase()} não tem simulação de venda; válidos: ${simulaveis.join(", ")}` });
  } else produto = lido;
  let uf = null;
  const ufTxt = get("uf");
  if (ufTxt !== void 0) {
    uf = normalizeUF(ufTxt);
    if (!uf) erros.push({ campo: "uf", mensagem: `${rotulo("uf")}: "${ufTxt}" não é uma sigla de estado (ex.: MS, SP, MT)` });
  }
  const nomeProduto = produto ? PRODUTO_INFO[produto].nome.toLowerCase() : "";
  const decimal = (k, casas, lim, unidade, obrigatorio, padrao) => {
    const t = get(k);
    if (t === void 0) {
      if (obrigatorio) erros.push({ campo: k, mensagem: `${rotulo(k)}: obrigatório para ${nomeProduto}` });
      return padrao;
    }
    const v = lerDecimal(t, casas);
    if (v === null) {
      const forma = casas === 0 ? "um número inteiro, ex.: 120 ou 1.000" : `um número com até ${casas} casas decimais, ex.: 540,5 ou 1.540,50`;
      erros.push({ campo: k, mensagem: `${rotulo(k)}: "${t.slice(0, 40)}" não é um número válido (use ${forma})` });
      return null;
    }
    const e = faixa(k, v, casas, lim, unidade);
    if (e) {
      erros.push(e);
      return null;
    }
    return v;
  };
  const tipo = produto ? PRODUTO_INFO[produto].tipo : null;
  const gado = tipo === "gado_arroba";
  const grao = tipo === "grao_saca";
  let cabecas = null;
  if (produto && !grao) {
    const c = decimal("cabecas", 0, limites.cabecas, " cabeças", true, null);
    cabecas = c === null ? null : Number(c);
  } else if (get("cabecas") !== void 0 && produto) {
    erros.push({ campo: "cabecas", mensagem: `${rotulo("cabecas")}: não se aplica a ${nomeProduto} (use ${rotulo("sacas")})` });
  }
  const peso = gado ? decimal("peso_vivo_kg", 2, limites.pesoVivoKg, " kg", true, null) : null;
  const rend = gado ? decimal("rendimento_pct", 2, limites.rendimentoPct, "%", true, null) : null;
  if (produto && !gado) {
    for (const k of ["peso_vivo_kg", "rendimento_pct"]) {
      if (get(k) !== void 0) erros.push({ campo: k, mensagem: `${rotulo(k)}: só se aplica a ${nomesDoTipo("gado_arroba")}` });
    }
  }
  const sacas = grao ? decimal("sacas", 2, limites.sacas, " sacas", true, null) : null;
  if (produto && !grao && get("sacas") !== void 0) erros.push({ campo: "sacas", mensagem: `${rotulo("sacas")}: só se aplica a ${nomesDoTipo("grao_saca")}` });
  const preco = decimal("preco", 2, limites.preco, "", false, null);
  let coluna = null;
  const colunaTxt = get("coluna");
  if (colunaTxt !== void 0) {
    const c = colunaTxt.trim().toLowerCase();
    if (!COLUNAS_PRECO.includes(c)) {
      erros.push({ campo: "coluna", mensagem: `${rotulo("coluna")}: "${colunaTxt.slice(0, 40)}" não existe; válidas: ${COLUNAS_PRECO.join(", ")}` });
    } else if (preco !== null && c !== "valor") {
      erros.push({ campo: "coluna", mensagem: `${rotulo("coluna")}: não se aplica a um preço informado (deixe o preço em branco para usar a coluna publicada)` });
    } else coluna = c === "valor" ? null : c;
  }
  const funrural = decimal("funrural_pct", 2, limites.funruralPct, "%", false, BigInt(FUNRURAL_PADRAO.aliquotaCentesimos));
  const comissao = decimal("comissao_pct", 2, limites.comissaoPct, "%", false, 0n);
  const frete = decimal("frete", 2, limites.frete, "", false, 0n);
  if (erros.length > 0 || !produto) return { ok: false, erros };
  const entrada = {
    produto,
    uf,
    cabecas,
    pesoVivoCentesimosKg: peso,
    rendimentoCentesimosPct: rend,
    sacasCentesimos: sacas,
    precoCentavos: preco,
    funruralCentesimosPct: funrural ?? 0n,
    coluna,
    comissaoCentesimosPct: comissao ?? 0n,
    freteCentavos: frete ?? 0n
  };
  if (preco !== null) {
    const unidades = gado ? uf ? ["@", "kg"] : ["@"] : grao ? ["sc60kg"] : ["cabeca"];
    for (const u of unidades) {
      const fora = foraDoLimite(entrada, contas(entrada, preco, u));
      if (fora) return { ok: false, erros: [fora] };
    }
  }
  return { ok: true, entrada };
}
function contas(entrada, precoCent, unidade, funruralCent = entrada.funruralCentesimosPct) {
  const quantidade = { base: "" };
  const publicados = [precoCent];
  let bruto;
  let unidadesVendidas;
  const tipo = PRODUTO_INFO[entrada.produto].tipo;
  if (tipo === "gado_arroba") {
    const cab = BigInt(entrada.cabecas);
    const pesoTotal = cab * entrada.pesoVivoCentesimosKg;
    const carcacaX = pesoTotal * entrada.rendimentoCentesimosPct;
    const arrobasCent = divRound(carcacaX, KG_POR_ARROBA * 10000n);
    quantidade.cabecas = entrada.cabecas;
    quantidade.peso_vivo_total_kg = toNumber(pesoTotal, 2);
    quantidade.arrobas = toNumber(arrobasCent, 2);
    publicados.push(cab, pesoTotal, arrobasCent);
    if (unidade === "kg") {
      quantidade.base = "kg de peso vivo";
      bruto = divRound(pesoTotal * precoCent, 100n);
      unidadesVendidas = pesoTotal;
    } else {
      quantidade.base = "arrobas";
      bruto = divRound(arrobasCent * precoCent, 100n);
      unidadesVendidas = arrobasCent;
    }
  } else if (tipo === "cabeca") {
    quantidade.cabecas = entrada.cabecas;
    quantidade.base = "cabeças";
    bruto = BigInt(entrada.cabecas) * precoCent;
    unidadesVendidas = BigInt(entrada.cabecas) * 100n;
    publicados.push(BigInt(entrada.cabecas));
  } else {
    quantidade.sacas = toNumber(entrada.sacasCentesimos, 2);
    quantidade.base = "sacas de 60 kg";
    bruto = divRound(entrada.sacasCentesimos * precoCent, 100n);
    unidadesVendidas = entrada.sacasCentesimos;
    publicados.push(entrada.sacasCentesimos);
  }
  const funrural = divRound(bruto * funruralCent, 10000n);
  const comissao = divRound(bruto * entrada.comissaoCentesimosPct, 10000n);
  const totalDed = funrural + comissao + entrada.freteCentavos;
  const liquido = bruto - totalDed;
  publicados.push(bruto, funrural, comissao, entrada.freteCentavos, totalDed, liquido);
  return { quantidade, bruto, funrural, comissao, totalDed, liquido, unidadesVendidas, publicados };
}
function foraDoLimite(entrada, c) {
  if (c.publicados.every((x) => x <= MAX_CENTAVOS && x >= -MAX_CENTAVOS)) return null;
  const campo = PRODUTO_INFO[entrada.produto].tipo === "grao_saca" ? "sacas" : "cabecas";
  return {
    campo,
    mensagem: `${rotulo(campo)}: com essa quantidade e esse preço algum valor passa de ${formatarReais(MAX_CENTAVOS)} e não seria exato ao centavo; reduza a quantidade ou o preço`
  };
}
function unidadeSimulavel(produto, unidade) {
  const info = PRODUTO_INFO[produto];
  if (info.tipo === "sem_simulacao") return false;
  return unidade === info.unidade || info.tipo === "gado_arroba" && unidade === "kg";
}
function serieDaEntrada(e) {
  return e.uf ? `${e.produto}/${e.uf}` : e.produto;
}
var UNIDADE_TEXTO = (u) => UNIDADE_INFO[u].sufixo;
function referenciaDaSerie(f, serie) {
  const ultimo = f.historico.length > 0 ? f.historico[f.historico.length - 1] : void 0;
  const colunas = {};
  const linhas = [];
  if (ultimo && ultimo.data === f.data_cotacao) linhas.push(ultimo);
  const daPraca = f.pracas?.find((p) => p.praca === f.praca && p.valor === f.valor);
  if (daPraca) linhas.push(daPraca);
  for (const linha of linhas) {
    for (const c of COLUNAS_PRECO) {
      const v = linha[c];
      if (c !== "valor" && colunas[c] === void 0 && typeof v === "number") colunas[c] = v;
    }
  }
  return {
    valor: f.valor,
    unidade: f.unidade,
    data_cotacao: f.data_cotacao,
    fonte: f.fonte,
    serie,
    praca: f.praca ?? null,
    nome: `${f.nome}, ${f.regiao}`,
    fonte_nome: f.proveniencia?.nome ?? null,
    colunas,
    sem_funrural: f.sem_funrural ? `O preço de ${f.proveniencia?.nome ?? f.fonte} já é sem Funrural ("${f.sem_funrural}"): nada a deduzir.` : null
  };
}
function hojeEmBrasilia(agora = /* @__PURE__ */ new Date()) {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" }).format(agora);
}
var DIA_MS2 = 864e5;
var diaUTC = (iso2) => Date.parse(`${iso2.slice(0, 10)}T00:00:00Z`);
function diasEntre(a, b) {
  return Math.round((diaUTC(b) - diaUTC(a)) / DIA_MS2);
}
function dataBR(iso2) {
  const [y, m, d] = iso2.slice(0, 10).split("-");
  return `${d}/${m}/${y}`;
}
function precoSemFunrural(ref, coluna) {
  const fonte = ref.fonte_nome ?? ref.fonte ?? "a fonte";
  if (coluna && COLUNA_INFO[coluna].desconta === "funrural") {
    return `Preço da coluna "${COLUNA_INFO[coluna].nome}" (${fonte}): o Funrural já foi descontado pela fonte; nada a deduzir.`;
  }
  if (coluna && COLUNA_INFO[coluna].desconta === "senar") {
    return `Preço da coluna "${COLUNA_INFO[coluna].nome}" (${fonte}), para quem contribui sobre a folha de salários (Lei 13.606/2018): nada mais a deduzir.`;
  }
  return coluna === null || coluna === "valor" ? ref.sem_funrural ?? null : null;
}
function simular(entrada, preco, opcoes = {}) {
  const obs = [];
  const avisos = [];
  const informado = entrada.precoCentavos !== null;
  if (!informado && !preco) throw new Error("simular: sem preço publicado e sem preço informado");
  const tipo = PRODUTO_INFO[entrada.produto].tipo;
  const unidade = informado ? tipo === "gado_arroba" ? preco?.unidade ?? PRODUTO_INFO[entrada.produto].unidade : PRODUTO_INFO[entrada.produto].unidade : preco.unidade;
  let valorPublicado = preco?.valor ?? 0;
  if (!informado && entrada.coluna) {
    const v = preco.colunas?.[entrada.coluna];
    if (v === void 0) {
      const tem = Object.keys(preco.colunas ?? {});
      throw new SimulacaoForaDoLimite([
        {
          campo: "coluna",
          mensagem: `${rotulo("coluna")}: ${preco.nome ?? preco.serie ?? "a série"} não publica a coluna ${entrada.coluna} em ${preco.data_cotacao ? dataBR(preco.data_cotacao) : "seu último dia"}; ` + (tem.length ? `colunas publicadas: valor, ${tem.join(", ")}` : "só há o valor de referência (coluna valor)")
        }
      ]);
    }
    valorPublicado = v;
  }
  const precoCent = informado ? entrada.precoCentavos : BigInt(toHundredths(valorPublicado));
  if (tipo === "cabeca" && unidade !== "cabeca") {
    throw new SimulacaoForaDoLimite([
      {
        campo: "uf",
        mensagem: `${PRODUTO_INFO[entrada.produto].nome} em ${entrada.uf ?? "?"} é cotado ${UNIDADE_INFO[unidade].por}, e o simulador vende ${PRODUTO_INFO[entrada.produto].nome.toLowerCase()} ${UNIDADE_INFO.cabeca.por}: simule sem UF (indicador nacional por cabeça) ou informe o preço por cabeça`
      }
    ]);
  }
  if (!unidadeSimulavel(entrada.produto, unidade)) {
    const info = PRODUTO_INFO[entrada.produto];
    throw new SimulacaoForaDoLimite([
      {
        campo: "uf",
        mensagem: `${info.nome}${entrada.uf ? ` em ${entrada.uf}` : ""} é cotado ${UNIDADE_INFO[unidade].por}, e o simulador vende ${info.nome.toLowerCase()} ${UNIDADE_INFO[info.unidade].por}: informe o preço ${UNIDADE_INFO[info.unidade].por}`
      }
    ]);
  }
  const semFunrural = informado ? null : precoSemFunrural(preco, entrada.coluna);
  const funruralCent = semFunrural ? 0n : entrada.funruralCentesimosPct;
  const c = contas(entrada, precoCent, unidade, funruralCent);
  const fora = foraDoLimite(entrada, c);
  if (fora) throw new SimulacaoForaDoLimite([fora]);
  const { quantidade, bruto, funrural, comissao, totalDed, liquido, unidadesVendidas } = c;
  let idade;
  let desatualizado;
  if (!informado && preco.data_cotacao) {
    const hoje = opcoes.hoje ?? hojeEmBrasilia();
    idade = Math.max(0, diasEntre(preco.data_cotacao, hoje));
    desatualizado = diasUteisEntre(preco.data_cotacao, hoje) > DIAS_UTEIS_ATUAL;
    if (desatualizado) {
      avisos.push(
        `Preço de ${dataBR(preco.data_cotacao)}, há ${idade} ${idade === 1 ? "dia" : "dias"}: é o último desta série (${preco.fonte_nome ?? preco.fonte ?? "fonte desconhecida"}) e pode estar longe do mercado de hoje. Confira o preço atual ou informe-o no campo "${rotulo("preco")}".`
      );
    }
  }
  if (informado) {
    const faixaDaUnidade = PRODUTO_INFO[entrada.produto].faixa[unidade];
    if (faixaDaUnidade) {
      const [lo, hi] = faixaDaUnidade.map((v) => BigInt(Math.round(v * 100)));
      if (precoCent < lo || precoCent > hi) {
        avisos.push(
          `Preço informado de ${formatarReais(precoCent)}${UNIDADE_TEXTO(unidade)}: fora da faixa usual de ${PRODUTO_INFO[entrada.produto].nome.toLowerCase()} ${UNIDADE_INFO[unidade].por} (${formatarReais(lo)} a ${formatarReais(hi)}). O preço informado é lido ${UNIDADE_INFO[unidade].por}${preco?.serie && preco.unidade === unidade ? `, a unidade da série escolhida (${preco.nome ?? preco.serie})` : ""}; confira a unidade e o valor.`
        );
      }
    }
  }
  if (semFunrural) obs.push(semFunrural);
  if (tipo === "gado_arroba") {
    obs.push(
      unidade === "kg" ? "Preço cotado por kg de peso vivo (como a Scot publica o RS): bruto = peso vivo total × R$/kg; as arrobas são só informativas." : "Arrobas = cabeças × peso vivo × rendimento de carcaça ÷ 15 kg, arredondadas ao centésimo antes de multiplicar pelo preço."
    );
  } else if (tipo === "cabeca") {
    obs.push("Animal vendido para reprodução ou criação não integra a base do Funrural (Lei 8.212/1991, art. 25, § 12): se for o caso, use alíquota 0.");
  }
  if (liquido < 0n) obs.push("As deduções superam o valor bruto: o resultado líquido é negativo.");
  const padrao = entrada.funruralCentesimosPct === BigInt(FUNRURAL_PADRAO.aliquotaCentesimos);
  if (!padrao && !semFunrural) obs.push(`Alíquota do Funrural alterada para ${fmt(entrada.funruralCentesimosPct, 2)}% (padrão: 1,5% para pessoa física).`);
  if (semFunrural && !padrao && entrada.funruralCentesimosPct > 0n) {
    obs.push(`A alíquota de ${fmt(entrada.funruralCentesimosPct, 2)}% não foi aplicada porque o preço já é sem Funrural; para deduzi-la de um preço bruto, informe esse preço no campo "${rotulo("preco")}".`);
  }
  const ref = informado ? { valor: toNumber(precoCent, 2), unidade, data_cotacao: null, fonte: null, serie: null, praca: null } : { ...preco, valor: toNumber(precoCent, 2) };
  const colunaUsada = informado ? void 0 : entrada.coluna ?? "valor";
  const nomeDaSerie = ref.nome ?? ref.serie ?? "";
  const descricao = informado ? `${formatarReais(precoCent)}${UNIDADE_TEXTO(unidade)} informado pelo usuário` : `${formatarReais(precoCent)}${UNIDADE_TEXTO(unidade)} de ${ref.data_cotacao ? dataBR(ref.data_cotacao) : "data desconhecida"} (${nomeDaSerie}${ref.praca ? `, praça ${ref.praca}` : ""}, fonte ${ref.fonte_nome ?? ref.fonte ?? "?"}${colunaUsada && colunaUsada !== "valor" ? `, coluna ${COLUNA_INFO[colunaUsada].nome}` : ""})`;
  return {
    entrada: {
      produto: entrada.produto,
      uf: entrada.uf,
      cabecas: entrada.cabecas,
      peso_vivo_kg: entrada.pesoVivoCentesimosKg === null ? null : toNumber(entrada.pesoVivoCentesimosKg, 2),
      rendimento_pct: entrada.rendimentoCentesimosPct === null ? null : toNumber(entrada.rendimentoCentesimosPct, 2),
      sacas: entrada.sacasCentesimos === null ? null : toNumber(entrada.sacasCentesimos, 2),
      preco: entrada.precoCentavos === null ? null : toNumber(entrada.precoCentavos, 2),
      coluna: entrada.coluna ?? (informado ? null : "valor"),
      funrural_pct: toNumber(entrada.funruralCentesimosPct, 2),
      comissao_pct: toNumber(entrada.comissaoCentesimosPct, 2),
      frete: toNumber(entrada.freteCentavos, 2)
    },
    preco: {
      ...ref,
      origem: informado ? "informado" : "serie",
      descricao,
      ...colunaUsada ? { coluna: colunaUsada } : {},
      ...idade !== void 0 ? { idade_dias: idade, desatualizado } : {}
    },
    quantidade,
    bruto: toNumber(bruto, 2),
    deducoes: {
      funrural: {
        aliquota_pct: toNumber(funruralCent, 2),
        valor: toNumber(funrural, 2),
        base_legal: FUNRURAL_PADRAO.base_legal,
        padrao,
        preco_sem_funrural: semFunrural !== null,
        motivo: semFunrural
      },
      comissao: { percentual: toNumber(entrada.comissaoCentesimosPct, 2), valor: toNumber(comissao, 2) },
      frete: toNumber(entrada.freteCentavos, 2),
      total: toNumber(totalDed, 2)
    },
    liquido: toNumber(liquido, 2),
    liquido_por_unidade: unidadesVendidas > 0n ? toNumber(divRoundSigned(liquido * 100n, unidadesVendidas), 2) : null,
    avisos,
    observacoes: obs
  };
}
function divRoundSigned(a, b) {
  return a < 0n ? -divRound(-a, b) : divRound(a, b);
}
export {
  CAMPOS_SIMULADOR,
  COLUNAS_PRECO,
  COLUNA_INFO,
  DIAS_UTEIS_ATUAL,
  FUNRURAL_PADRAO,
  LIMITES,
  ROTULOS,
  SimulacaoForaDoLimite,
  diasEntre,
  diasUteisEntre,
  formatarReais,
  hojeEmBrasilia,
  lerDecimal,
  nomeDaColuna,
  referenciaDaSerie,
  serieDaEntrada,
  simular,
  unidadeSimulavel,
  validarEntrada
};
