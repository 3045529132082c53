// Gerado por `npm run build` a partir de pipeline/openapi/client.template.js, com as URLs do campo
// "repository" do package.json; não edite este arquivo, edite o modelo.
// Cotação Aberta: client for the static API (ES module, no dependencies, browser and Node 18+).
//   import { createClient } from "https://cotacao-aberta.github.io/cotacao-aberta/api/v1/client.js";
//   const api = createClient();
//   const { boi_gordo_cepea_sp } = await api.cotacao();
// Types: client.d.ts next to this file. License: CC-BY-4.0.

export const PRODUTOS = Object.freeze(["boi_gordo", "vaca_gorda", "soja", "milho", "bezerro", "novilha_gorda", "boi_china", "bezerro_desmama", "garrote", "boi_magro", "boi_gordo_prazo", "trigo", "arroz", "arroz_alto_rendimento", "cafe_arabica", "cafe_robusta", "algodao", "acucar_cristal_sp", "acucar_santos", "laranja_industria", "laranja_pera", "laranja_industria_precoce", "frango_congelado", "frango_resfriado", "suino_vivo", "suino_carcaca"]);

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

/** Shape of cotacao/{produto}[/{UF}].json; returns what is wrong, or null. */
function problemaSerie(doc, produto, uf) {
  if (!isObject(doc)) return "não é um objeto";
  if (doc.api_version !== "v1") return "api_version diferente de \"v1\"";
  if (doc.produto !== produto) return `produto ${JSON.stringify(doc.produto)} em vez de ${produto}`;
  if ((doc.uf ?? null) !== uf) return `uf ${JSON.stringify(doc.uf)} em vez de ${JSON.stringify(uf)}`;
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

  /** GET `path` from the first mirror that answers JSON of the expected shape. */
  async function get(path, problema) {
    const tentativas = [];
    for (const base of mirrors) {
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
        return doc;
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

  function serie(produto, uf) {
    const p = checkProduto(produto);
    const u = checkUf(uf);
    const path = u ? `api/v1/cotacao/${p}/${u}.json` : `api/v1/cotacao/${p}.json`;
    return get(path, (doc) => problemaSerie(doc, p, u));
  }

  return {
    mirrors: Object.freeze([...mirrors]),
    cotacao(opts = {}) {
      const u = checkUf(opts.uf);
      const path = u ? `api/v1/cotacao/uf/${u}.json` : "api/v1/cotacao.json";
      return get(path, (doc) => problemaAgregado(doc, u));
    },
    serie,
    async historico(produto, uf, intervalo) {
      if (isObject(uf) && intervalo === undefined) {
        intervalo = uf;
        uf = undefined;
      }
      const de = checkDia("de", intervalo?.de);
      const ate = checkDia("ate", intervalo?.ate);
      if (de && ate && de > ate) throw new RangeError(`intervalo inválido: de (${de}) depois de ate (${ate})`);
      const doc = await serie(produto, uf);
      return doc.historico.filter((e) => (!de || e.data >= de) && (!ate || e.data <= ate));
    },
  };
}
