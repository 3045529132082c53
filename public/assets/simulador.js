/* Gerado por pipeline/serve/assets.ts a partir de pipeline/; não edite. */
var __defProp = Object.defineProperty;
var __defNormalProp = (obj, key, value) => key in obj ? __defProp(obj, key, { enumerable: true, configurable: true, writable: true, value }) : obj[key] = value;
var __publicField = (obj, key, value) => __defNormalProp(obj, typeof key !== "symbol" ? key + "" : key, value);

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

// pipeline/domain/products.ts
var PRODUTOS = ["boi_gordo", "vaca_gorda", "soja", "milho", "bezerro"];
var PRODUTO_INFO = {
  boi_gordo: { nome: "Boi gordo", unidade: "@", faixa: { "@": [100, 1e3], kg: [4, 60] }, saltoMaximoPct: 10, revisaoMaximaPct: 1.5 },
  vaca_gorda: { nome: "Vaca gorda", unidade: "@", faixa: { "@": [100, 1e3], kg: [4, 60] }, saltoMaximoPct: 10, revisaoMaximaPct: 1.5 },
  soja: { nome: "Soja", unidade: "sc60kg", faixa: { sc60kg: [40, 500] }, saltoMaximoPct: 10, revisaoMaximaPct: 1 },
  milho: { nome: "Milho", unidade: "sc60kg", faixa: { sc60kg: [15, 250] }, saltoMaximoPct: 12, revisaoMaximaPct: 1 },
  bezerro: { nome: "Bezerro", unidade: "cabeca", faixa: { cabeca: [500, 15e3] }, saltoMaximoPct: 12, revisaoMaximaPct: 1.5 }
};

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
  const s = texto.replace(/\s/g, "");
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
  for (const k of Object.keys(params)) {
    if (!CAMPOS.includes(k)) {
      erros.push({ campo: k, mensagem: `parâmetro desconhecido "${k}"; válidos: ${CAMPOS.join(", ")}` });
    }
  }
  const produtoTxt = get("produto");
  let produto = null;
  if (produtoTxt === void 0) erros.push({ campo: "produto", mensagem: `${rotulo("produto")}: obrigatório; válidos: ${PRODUTOS.join(", ")}` });
  else if (!PRODUTOS.includes(produtoTxt.trim().toLowerCase())) {
    erros.push({ campo: "produto", mensagem: `${rotulo("produto")}: "${produtoTxt}" não existe; válidos: ${PRODUTOS.join(", ")}` });
  } else produto = produtoTxt.trim().toLowerCase();
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
  const gado = produto === "boi_gordo" || produto === "vaca_gorda";
  const grao = produto === "soja" || produto === "milho";
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
      if (get(k) !== void 0) erros.push({ campo: k, mensagem: `${rotulo(k)}: só se aplica a boi gordo e vaca gorda` });
    }
  }
  const sacas = grao ? decimal("sacas", 2, limites.sacas, " sacas", true, null) : null;
  if (produto && !grao && get("sacas") !== void 0) erros.push({ campo: "sacas", mensagem: `${rotulo("sacas")}: só se aplica a soja e milho` });
  const preco = decimal("preco", 2, limites.preco, "", false, null);
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
function contas(entrada, precoCent, unidade) {
  const quantidade = { base: "" };
  const publicados = [precoCent];
  let bruto;
  let unidadesVendidas;
  if (entrada.produto === "boi_gordo" || entrada.produto === "vaca_gorda") {
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
  } else if (entrada.produto === "bezerro") {
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
  const funrural = divRound(bruto * entrada.funruralCentesimosPct, 10000n);
  const comissao = divRound(bruto * entrada.comissaoCentesimosPct, 10000n);
  const totalDed = funrural + comissao + entrada.freteCentavos;
  const liquido = bruto - totalDed;
  publicados.push(bruto, funrural, comissao, entrada.freteCentavos, totalDed, liquido);
  return { quantidade, bruto, funrural, comissao, totalDed, liquido, unidadesVendidas, publicados };
}
function foraDoLimite(entrada, c) {
  if (c.publicados.every((x) => x <= MAX_CENTAVOS && x >= -MAX_CENTAVOS)) return null;
  const campo = entrada.produto === "soja" || entrada.produto === "milho" ? "sacas" : "cabecas";
  return {
    campo,
    mensagem: `${rotulo(campo)}: com essa quantidade e esse preço algum valor passa de ${formatarReais(MAX_CENTAVOS)} e não seria exato ao centavo; reduza a quantidade ou o preço`
  };
}
function serieDaEntrada(e) {
  return e.uf ? `${e.produto}/${e.uf}` : e.produto;
}
var UNIDADE_TEXTO = { "@": "/@", kg: "/kg", sc60kg: "/sc 60 kg", cabeca: "/cabeça" };
function simular(entrada, preco) {
  const obs = [];
  const informado = entrada.precoCentavos !== null;
  if (!informado && !preco) throw new Error("simular: sem preço publicado e sem preço informado");
  const unidade = informado ? entrada.produto === "soja" || entrada.produto === "milho" ? "sc60kg" : entrada.produto === "bezerro" ? "cabeca" : preco?.unidade ?? "@" : preco.unidade;
  const precoCent = informado ? entrada.precoCentavos : BigInt(toHundredths(preco.valor));
  const c = contas(entrada, precoCent, unidade);
  const fora = foraDoLimite(entrada, c);
  if (fora) throw new SimulacaoForaDoLimite([fora]);
  const { quantidade, bruto, funrural, comissao, totalDed, liquido, unidadesVendidas } = c;
  if (entrada.produto === "boi_gordo" || entrada.produto === "vaca_gorda") {
    obs.push(
      unidade === "kg" ? "Preço cotado por kg de peso vivo (como a Scot publica o RS): bruto = peso vivo total × R$/kg; as arrobas são só informativas." : "Arrobas = cabeças × peso vivo × rendimento de carcaça ÷ 15 kg, arredondadas ao centésimo antes de multiplicar pelo preço."
    );
  } else if (entrada.produto === "bezerro") {
    obs.push("Animal vendido para reprodução ou criação não integra a base do Funrural (Lei 8.212/1991, art. 25, § 12): se for o caso, use alíquota 0.");
  }
  if (liquido < 0n) obs.push("As deduções superam o valor bruto: o resultado líquido é negativo.");
  const padrao = entrada.funruralCentesimosPct === BigInt(FUNRURAL_PADRAO.aliquotaCentesimos);
  if (!padrao) obs.push(`Alíquota do Funrural alterada para ${fmt(entrada.funruralCentesimosPct, 2)}% (padrão: 1,5% para pessoa física).`);
  const ref = informado ? { valor: toNumber(precoCent, 2), unidade, data_cotacao: null, fonte: null, serie: null, praca: null } : preco;
  const descricao = informado ? `${formatarReais(precoCent)}${UNIDADE_TEXTO[unidade]} informado pelo usuário` : `${formatarReais(precoCent)}${UNIDADE_TEXTO[unidade]} de ${ref.data_cotacao ?? "data desconhecida"} (${ref.serie ?? ""}${ref.praca ? `, praça ${ref.praca}` : ""}, fonte ${ref.fonte ?? "?"})`;
  return {
    entrada: {
      produto: entrada.produto,
      uf: entrada.uf,
      cabecas: entrada.cabecas,
      peso_vivo_kg: entrada.pesoVivoCentesimosKg === null ? null : toNumber(entrada.pesoVivoCentesimosKg, 2),
      rendimento_pct: entrada.rendimentoCentesimosPct === null ? null : toNumber(entrada.rendimentoCentesimosPct, 2),
      sacas: entrada.sacasCentesimos === null ? null : toNumber(entrada.sacasCentesimos, 2),
      preco: entrada.precoCentavos === null ? null : toNumber(entrada.precoCentavos, 2),
      funrural_pct: toNumber(entrada.funruralCentesimosPct, 2),
      comissao_pct: toNumber(entrada.comissaoCentesimosPct, 2),
      frete: toNumber(entrada.freteCentavos, 2)
    },
    preco: { ...ref, origem: informado ? "informado" : "serie", descricao },
    quantidade,
    bruto: toNumber(bruto, 2),
    deducoes: {
      funrural: {
        aliquota_pct: toNumber(entrada.funruralCentesimosPct, 2),
        valor: toNumber(funrural, 2),
        base_legal: FUNRURAL_PADRAO.base_legal,
        padrao
      },
      comissao: { percentual: toNumber(entrada.comissaoCentesimosPct, 2), valor: toNumber(comissao, 2) },
      frete: toNumber(entrada.freteCentavos, 2),
      total: toNumber(totalDed, 2)
    },
    liquido: toNumber(liquido, 2),
    liquido_por_unidade: unidadesVendidas > 0n ? toNumber(divRoundSigned(liquido * 100n, unidadesVendidas), 2) : null,
    observacoes: obs
  };
}
function divRoundSigned(a, b) {
  return a < 0n ? -divRound(-a, b) : divRound(a, b);
}
export {
  CAMPOS_SIMULADOR,
  FUNRURAL_PADRAO,
  LIMITES,
  ROTULOS,
  SimulacaoForaDoLimite,
  formatarReais,
  lerDecimal,
  serieDaEntrada,
  simular,
  validarEntrada
};
