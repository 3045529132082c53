/* Gerado por pipeline/serve/assets.ts a partir de pipeline/; não edite. */

// pipeline/domain/products.ts
var PRODUTOS = ["boi_gordo", "vaca_gorda", "soja", "milho", "bezerro"];

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
var PRODUTOS_GADO = ["boi_gordo", "vaca_gorda"];
var LIMITES = {
  cabecas: [1, 1e6],
  pesoVivoKg: [30, 2e3],
  rendimentoPct: [30, 75],
  sacas: [0.01, 1e8],
  preco: [0.01, 1e6],
  funruralPct: [0, 10],
  comissaoPct: [0, 100],
  frete: [0, 1e9]
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
function lerDecimal(texto, casas) {
  let s = texto.trim().replace(/\s/g, "");
  if (s === "" || s.length > 32) return null;
  if (s.includes(",")) {
    if (!/^\d{1,3}(\.\d{3})*(,\d+)?$|^\d+(,\d+)?$/.test(s)) return null;
    s = s.replace(/\./g, "").replace(",", ".");
  } else if (!/^\d+(\.\d+)?$/.test(s)) {
    return null;
  }
  const [int = "0", frac = ""] = s.split(".");
  if (frac.length > casas) return null;
  return BigInt(int) * 10n ** BigInt(casas) + BigInt(frac.padEnd(casas, "0") || "0");
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
  return `R$ ${fmt(centavos, 2)}`;
}
function faixa(campo, valor, casas, [min, max], unidade) {
  const lo = BigInt(Math.round(min * 10 ** casas));
  const hi = BigInt(Math.round(max * 10 ** casas));
  if (valor < lo || valor > hi) {
    return { campo, mensagem: `${campo}: deve estar entre ${fmt(lo, casas)} e ${fmt(hi, casas)}${unidade}` };
  }
  return null;
}
function validarEntrada(params) {
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
  if (produtoTxt === void 0) erros.push({ campo: "produto", mensagem: `produto: obrigatório; válidos: ${PRODUTOS.join(", ")}` });
  else if (!PRODUTOS.includes(produtoTxt.trim().toLowerCase())) {
    erros.push({ campo: "produto", mensagem: `produto: "${produtoTxt}" não existe; válidos: ${PRODUTOS.join(", ")}` });
  } else produto = produtoTxt.trim().toLowerCase();
  let uf = null;
  const ufTxt = get("uf");
  if (ufTxt !== void 0) {
    uf = normalizeUF(ufTxt);
    if (!uf) erros.push({ campo: "uf", mensagem: `uf: "${ufTxt}" não é uma sigla de estado (ex.: MS, SP, MT)` });
  }
  const decimal = (k, casas, lim, unidade, obrigatorio, padrao) => {
    const t = get(k);
    if (t === void 0) {
      if (obrigatorio) erros.push({ campo: k, mensagem: `${k}: obrigatório para ${produto}` });
      return padrao;
    }
    const v = lerDecimal(t, casas);
    if (v === null) {
      const forma = casas === 0 ? "um número inteiro, ex.: 120" : `um número com até ${casas} casas decimais, ex.: 540,5 ou 540.5`;
      erros.push({ campo: k, mensagem: `${k}: "${t}" não é um número válido (use ${forma})` });
      return null;
    }
    const e = faixa(k, v, casas, lim, unidade);
    if (e) erros.push(e);
    return v;
  };
  const gado = produto === "boi_gordo" || produto === "vaca_gorda";
  const grao = produto === "soja" || produto === "milho";
  let cabecas = null;
  if (produto && !grao) {
    const c = decimal("cabecas", 0, LIMITES.cabecas, " cabeças", true, null);
    cabecas = c === null ? null : Number(c);
  } else if (get("cabecas") !== void 0 && produto) {
    erros.push({ campo: "cabecas", mensagem: `cabecas: não se aplica a ${produto} (use sacas)` });
  }
  const peso = gado ? decimal("peso_vivo_kg", 2, LIMITES.pesoVivoKg, " kg", true, null) : null;
  const rend = gado ? decimal("rendimento_pct", 2, LIMITES.rendimentoPct, "%", true, null) : null;
  if (produto && !gado) {
    for (const k of ["peso_vivo_kg", "rendimento_pct"]) {
      if (get(k) !== void 0) erros.push({ campo: k, mensagem: `${k}: só se aplica a boi_gordo e vaca_gorda` });
    }
  }
  const sacas = grao ? decimal("sacas", 2, LIMITES.sacas, " sacas", true, null) : null;
  if (produto && !grao && get("sacas") !== void 0) erros.push({ campo: "sacas", mensagem: `sacas: só se aplica a soja e milho` });
  const preco = decimal("preco", 2, LIMITES.preco, "", false, null);
  const funrural = decimal("funrural_pct", 2, LIMITES.funruralPct, "%", false, BigInt(FUNRURAL_PADRAO.aliquotaCentesimos));
  const comissao = decimal("comissao_pct", 2, LIMITES.comissaoPct, "%", false, 0n);
  const frete = decimal("frete", 2, LIMITES.frete, "", false, 0n);
  if (erros.length > 0 || !produto) return { ok: false, erros };
  return {
    ok: true,
    entrada: {
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
    }
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
  const precoCent = informado ? entrada.precoCentavos : BigInt(Math.round(preco.valor * 100));
  const quantidade = { base: "" };
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
    if (unidade === "kg") {
      quantidade.base = "kg de peso vivo";
      bruto = divRound(pesoTotal * precoCent, 100n);
      unidadesVendidas = pesoTotal;
      obs.push("Preço cotado por kg de peso vivo (como a Scot publica o RS): bruto = peso vivo total × R$/kg; as arrobas são só informativas.");
    } else {
      quantidade.base = "arrobas";
      bruto = divRound(arrobasCent * precoCent, 100n);
      unidadesVendidas = arrobasCent;
      obs.push("Arrobas = cabeças × peso vivo × rendimento de carcaça ÷ 15 kg, arredondadas ao centésimo antes de multiplicar pelo preço.");
    }
  } else if (entrada.produto === "bezerro") {
    quantidade.cabecas = entrada.cabecas;
    quantidade.base = "cabeças";
    bruto = BigInt(entrada.cabecas) * precoCent;
    unidadesVendidas = BigInt(entrada.cabecas) * 100n;
    obs.push("Animal vendido para reprodução ou criação não integra a base do Funrural (Lei 8.212/1991, art. 25, § 12): se for o caso, use alíquota 0.");
  } else {
    quantidade.sacas = toNumber(entrada.sacasCentesimos, 2);
    quantidade.base = "sacas de 60 kg";
    bruto = divRound(entrada.sacasCentesimos * precoCent, 100n);
    unidadesVendidas = entrada.sacasCentesimos;
  }
  const funrural = divRound(bruto * entrada.funruralCentesimosPct, 10000n);
  const comissao = divRound(bruto * entrada.comissaoCentesimosPct, 10000n);
  const totalDed = funrural + comissao + entrada.freteCentavos;
  const liquido = bruto - totalDed;
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
  PRODUTOS_GADO,
  formatarReais,
  lerDecimal,
  serieDaEntrada,
  simular,
  validarEntrada
};
