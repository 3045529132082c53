// Gerado por `npm run build` a partir de pipeline/openapi/client.template.js, com as URLs do campo
// "repository" do package.json; não edite este arquivo, edite o modelo.
// Cotação Aberta: client for the static API (ES module, no dependencies, browser and Node 18+).
//   import { createClient } from "https://cotacao-aberta.github.io/cotacao-aberta/api/v1/client.js";   // or: npm install @cotacao-aberta/cliente
//   const api = createClient();
//   const { boi_gordo_cepea_sp } = await api.cotacao();
// Types: client.d.ts next to this file (index.d.ts in the npm package). License: CC-BY-4.0.
// One source: api/v1/client.js and the npm package's index.js are both generated from
// pipeline/openapi/client.template.js.

export const PRODUTOS = Object.freeze(["boi_gordo", "vaca_gorda", "soja", "milho", "bezerro", "novilha_gorda", "boi_china", "bezerro_desmama", "bezerro_reposicao", "garrote", "boi_magro", "boi_gordo_prazo", "trigo", "arroz", "arroz_alto_rendimento", "cafe_arabica", "cafe_robusta", "algodao", "acucar_cristal_sp", "acucar_santos", "laranja_industria", "laranja_pera", "laranja_industria_precoce", "frango_congelado", "frango_resfriado", "suino_vivo", "suino_carcaca"]);

/** GitHub Pages first, then the jsDelivr mirror of the same branch (gh-pages). */
export const DEFAULT_MIRRORS = Object.freeze([
  "https://cotacao-aberta.github.io/cotacao-aberta/",
  "https://cdn.jsdelivr.net/gh/cotacao-aberta/cotacao-aberta@gh-pages/",
]);

export const DEFAULT_TIMEOUT_MS = 8000;

/** Every mirror failed; `tentativas` says what each one answered. */
export class CotacaoError extends Error {
  constructor(message, tentativas = []) {
    super(message);
    this.name = "CotacaoError";
    this.tentativas = tentativas;
  }
}

const DIA = /^\d{4}-\d{2}-\d{2}$/;

function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function checkProduto(produto) {
  if (!PRODUTOS.includes(produto)) {
    throw new TypeError(`produto inválido: ${JSON.stringify(produto)}; válidos: ${PRODUTOS.join(", ")}`);
  }
  return produto;
}

function checkUf(uf) {
  if (uf === undefined || uf === null) return null;
  const u = String(uf).trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(u)) throw new TypeError(`uf inválida: ${JSON.stringify(uf)} (use a sigla, ex.: MS)`);
  return u;
}

function checkDia(nome, v) {
  if (v === undefined || v === null) return null;
  if (typeof v !== "string" || !DIA.test(v)) throw new TypeError(`${nome} inválido: ${JSON.stringify(v)} (use AAAA-MM-DD)`);
  return v;
}

/** Shape of cotacao.json / cotacao/uf/{UF}.json; returns what is wrong, or null. */
function problemaAgregado(doc, uf) {
  if (!isObject(doc)) return "não é um objeto";
  if (doc.api_version !== "v1") return "api_version diferente de \"v1\"";
  if (typeof doc.atualizado !== "string") return "sem \"atualizado\"";
  if (!("boi_gordo_cepea_sp" in doc) || !isObject(doc.datas)) return "não é o agregado de cotações";
  if (uf && !("boi_gordo_uf" in doc)) return `sem "boi_gordo_uf" para ${uf}`;
  return null;
}

/** Shape of index.json, status.json, eventos.json: the keys each must have, and which is a list. */
function problemaDoc(lista, chaves) {
  return (doc) => {
    if (!isObject(doc)) return "não é um objeto";
    if (doc.api_version !== "v1") return "api_version diferente de \"v1\"";
    if (typeof doc.atualizado !== "string") return "sem \"atualizado\"";
    for (const k of chaves) if (!(k in doc)) return `sem "${k}"`;
    if (!Array.isArray(doc[lista])) return `"${lista}" não é uma lista`;
    return null;
  };
}

/**
 * A path of index.json as a URL. Paths are relative to index.json's own directory (api/v1/):
 * "cotacao/{produto}.json"; files published before that said "api/v1/cotacao/{produto}.json",
 * relative to the site root. Both forms resolve to the same file.
 */
export function resolverCaminho(caminho, indexUrl) {
  const c = String(caminho);
  return new URL(c.startsWith("api/v1/") ? `../../${c}` : c, indexUrl).href;
}

/** Shape of cotacao/{produto}[/{UF}].json; returns what is wrong, or null. */
function problemaSerie(doc, produto, uf) {
  if (!isObject(doc)) return "não é um objeto";
  if (doc.api_version !== "v1") return "api_version diferente de \"v1\"";
  if (doc.produto !== produto) return `produto ${JSON.stringify(doc.produto)} em vez de ${produto}`;
  // a national file's uf is the place of its indicator (SP, PR...), or null: only a state file must match
  if (uf !== null && doc.uf !== uf) return `uf ${JSON.stringify(doc.uf)} em vez de ${JSON.stringify(uf)}`;
  if (uf === null && "pracas" in doc) return "arquivo de UF em vez da referência nacional";
  if (typeof doc.valor !== "number" || typeof doc.data_cotacao !== "string") return "sem valor/data_cotacao";
  if (!Array.isArray(doc.historico) || !doc.historico.every((e) => isObject(e) && typeof e.data === "string" && typeof e.valor === "number")) {
    return "historico ausente ou malformado";
  }
  return null;
}

/**
 * @param {import("./client.d.ts").ClientOptions} [options]
 * @returns {import("./client.d.ts").CotacaoClient}
 */
export function createClient(options = {}) {
  const mirrors = [...(options.mirrors ?? DEFAULT_MIRRORS)].map((m) => (String(m).endsWith("/") ? String(m) : `${m}/`));
  if (mirrors.length === 0) throw new TypeError("createClient: informe ao menos um espelho em mirrors");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const fetchFn = options.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== "function") throw new TypeError("createClient: fetch não disponível; passe options.fetch");
  const onAviso = typeof options.onAviso === "function" ? options.onAviso : null;
  /** path -> the newest `atualizado` this client has received for it, from any mirror */
  const vistos = new Map();

  /**
   * Where a document came from, as non-enumerable properties (JSON.stringify and deep equality
   * see only the published fields): `origem` the mirror's root URL, `espelho` its position
   * (0 = the first), `defasado` true when a mirror answered with an `atualizado` older than this
   * client had already received for the same file: a fallback (jsDelivr lags GitHub Pages), or the
   * first one too (a CDN edge still holding the previous publish, up to its max-age): a mirror
   * never passes older data off as current without saying so.
   */
  function marcar(doc, path, base, i, tentativas) {
    const anterior = vistos.get(path) ?? null;
    const atual = typeof doc.atualizado === "string" ? doc.atualizado : null;
    const defasado = anterior !== null && atual !== null && Date.parse(atual) < Date.parse(anterior);
    if (atual !== null && (anterior === null || Date.parse(atual) > Date.parse(anterior))) vistos.set(path, atual);
    for (const [k, v] of [["origem", base], ["espelho", i], ["defasado", defasado]]) {
      Object.defineProperty(doc, k, { value: v, enumerable: false, configurable: true });
    }
    if (defasado && onAviso) {
      onAviso({ tipo: "defasado", url: new URL(path, base).href, atualizado: atual, anterior, tentativas: [...tentativas] });
    }
    return doc;
  }

  /** GET `path` from the first mirror that answers JSON of the expected shape. */
  async function get(path, problema) {
    const tentativas = [];
    for (const [i, base] of mirrors.entries()) {
      const url = new URL(path, base).href;
      const ctrl = new AbortController();
      const timer = setTimeout(() => ctrl.abort(), timeoutMs);
      try {
        const res = await fetchFn(url, { signal: ctrl.signal, headers: { accept: "application/json" } });
        if (!res.ok) {
          tentativas.push({ url, motivo: `HTTP ${res.status}` });
          continue;
        }
        const text = await res.text();
        let doc;
        try {
          doc = JSON.parse(text);
        } catch {
          // GitHub Pages (and captive portals) answer with an HTML page
          tentativas.push({ url, motivo: /^\s*</.test(text) ? "resposta em HTML, não JSON" : "resposta não é JSON" });
          continue;
        }
        const p = problema(doc);
        if (p) {
          tentativas.push({ url, motivo: `JSON com forma inesperada: ${p}` });
          continue;
        }
        return marcar(doc, path, base, i, tentativas);
      } catch (err) {
        tentativas.push({ url, motivo: ctrl.signal.aborted ? `sem resposta em ${timeoutMs} ms` : `falha de rede: ${err && err.message ? err.message : err}` });
      } finally {
        clearTimeout(timer);
      }
    }
    throw new CotacaoError(
      `nenhum espelho respondeu ${path} corretamente: ${tentativas.map((t) => `${t.url}: ${t.motivo}`).join("; ")}`,
      tentativas,
    );
  }

  // arguments are checked synchronously: a bad one throws before any request
  function serie(produto, uf) {
    const p = checkProduto(produto);
    const u = checkUf(uf);
    const nacional = () => get(`api/v1/cotacao/${p}.json`, (doc) => problemaSerie(doc, p, null));
    if (!u) return nacional();
    return get(`api/v1/cotacao/${p}/${u}.json`, (doc) => problemaSerie(doc, p, u)).catch(async (err) => {
      // no state file anywhere (every mirror said 404): a national series answers for its own
      // place, as the query interface does (a state's indicator published as the national series,
      // e.g. CEPEA's calf of Mato Grosso do Sul, says that state in its uf)
      if (!(err instanceof CotacaoError) || !err.tentativas.every((t) => t.motivo === "HTTP 404")) throw err;
      const doc = await nacional().catch(() => null);
      if (doc && doc.uf === u) return doc;
      throw err;
    });
  }

  return {
    mirrors: Object.freeze([...mirrors]),
    cotacao(opts = {}) {
      const u = checkUf(opts.uf);
      const path = u ? `api/v1/cotacao/uf/${u}.json` : "api/v1/cotacao.json";
      return get(path, (doc) => problemaAgregado(doc, u));
    },
    serie,
    /** index.json: every series, source, product and UF; paths resolve with resolverCaminho */
    index() {
      return get("api/v1/index.json", problemaDoc("series", ["fontes", "produtos", "ufs"]));
    },
    /** status.json: each source's last attempt and success, each series' last day */
    status() {
      return get("api/v1/status.json", problemaDoc("series", ["fontes"]));
    },
    /** eventos.json: the recent events, newest first */
    eventos() {
      return get("api/v1/eventos.json", problemaDoc("eventos", ["limite"]));
    },
    /** the JSON file a path of index.json names (a series' `path`), from the first mirror that has it */
    arquivo(caminho) {
      const base = mirrors[0];
      const url = resolverCaminho(caminho, new URL("api/v1/index.json", base));
      const rel = url.startsWith(base) ? url.slice(base.length) : "";
      if (!rel.startsWith("api/v1/") || !rel.endsWith(".json")) return Promise.reject(new TypeError(`caminho fora da API ou não JSON: ${JSON.stringify(caminho)}`));
      return get(rel, (doc) => (isObject(doc) && doc.api_version === "v1" ? null : "não é um arquivo da API v1"));
    },
    async historico(produto, uf, intervalo) {
      if (isObject(uf) && intervalo === undefined) {
        intervalo = uf;
        uf = undefined;
      }
      const de = checkDia("de", intervalo?.de);
      const ate = checkDia("ate", intervalo?.ate);
      if (de && ate && de > ate) throw new RangeError(`intervalo inválido: de (${de}) depois de ate (${ate})`);
      const doc = await serie(produto, uf);
      const dias = doc.historico.filter((e) => (!de || e.data >= de) && (!ate || e.data <= ate));
      // a new array: it carries its file's marks, or a fallback mirror's older days would pass for current
      for (const k of ["origem", "espelho", "defasado"]) {
        Object.defineProperty(dias, k, { value: doc[k], enumerable: false, configurable: true });
      }
      return dias;
    },
  };
}
