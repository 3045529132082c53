/**
 * The Atom feed (RFC 4287) of eventos.json: one entry per event, text in pt-BR, for feed readers
 * and news desks. Rendered from the same events, so it changes exactly when eventos.json does.
 */
import { formatDateBR } from "../domain/dates.ts";
import { licenseShort, PROJECT_NAME } from "../domain/license.ts";
import { SOURCES } from "../sources/index.ts";
import { formatBRL, formatDecimalBR, formatPreco } from "../domain/money.ts";
import { UNIDADE_INFO, type Unidade } from "../domain/products.ts";
import { UFS } from "../domain/ufs.ts";
import { SITE_URL } from "../domain/site.ts";
import { EVENTOS_PATH, FEED_PATH, type Evento, type EventoSemSeq, type EventosFile, type PriceChangedDados } from "./model.ts";
import { nomesDosProdutos, serieDef } from "../sources/index.ts";
import { ancoraSerie, nomeFonte, nomeSerie } from "../publish/nomes.ts";

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

const preco = (valor: number, unidade: Unidade) => formatPreco(valor, unidade);
const sinal = (n: number) => (n > 0 ? "+" : n < 0 ? "−" : "");
/** A change in reais ("R$ 1,40"); in a unit quoted in centavos (CEPEA's cotton) it is centavos too: "1,50 centavos de R$/lb". */
const variacaoAbsoluta = (abs: number, unidade: Unidade) => (UNIDADE_INFO[unidade]?.emCentavos ? preco(abs, unidade) : formatBRL(abs));

/** "Boi gordo (MT, Scot Consultoria)", by the series id (a national series' uf names its place). */
function onde(d: { serie: string; nome: string; fonte: string }): string {
  return nomeSerie(d.serie, d.fonte, d.nome);
}

/** "Boi gordo em Mato Grosso"; "Boi gordo (CEPEA/ESALQ-USP)" when national. */
function ondeLongo(d: { serie: string; nome: string; fonte: string }): string {
  const uf = d.serie.includes("/") ? d.serie.split("/")[1]! : null;
  return uf ? `${d.nome} em ${UFS[uf as keyof typeof UFS] ?? uf}` : onde(d);
}

/** A series of a cotacao_atualizada summary by name, from the catalogue. */
function ondeDoId(serie: string): string {
  const def = serieDef(serie);
  return def ? nomeSerie(serie, def.fonte) : serie;
}

function direcao(d: PriceChangedDados): string {
  const p = d.variacao.percentual;
  if (p > 0) return `alta de ${formatDecimalBR(p)}%`;
  if (p < 0) return `queda de ${formatDecimalBR(-p)}%`;
  return "variação de 0,00%";
}

const TIPO_ROTULO: Record<Evento["tipo"], string> = {
  cotacao_atualizada: "Cotações atualizadas",
  price_changed: "Preço alterado",
  historico_revisado: "Histórico revisado",
};

/**
 * Title, summary and links of one event, in pt-BR: `path` the JSON file, `ancora` the series'
 * anchor on the dashboard (null: the dashboard itself).
 */
export function describeEvento(e: EventoSemSeq): { titulo: string; resumo: string; path: string; ancora: string | null } {
  switch (e.tipo) {
    case "price_changed": {
      const d = e.dados;
      const abs = d.variacao.absoluta;
      const quando = d.dias === 0 ? `o valor de ${formatDateBR(d.atual.data)} foi revisado` : `de ${formatDateBR(d.anterior.data)} para ${formatDateBR(d.atual.data)}`;
      // a run that brings several days (a missed run, a holiday's backlog) compares with the last
      // day published before it, not with the day before the new one, which is what the series'
      // `variacao` and a bare "alta de x%" beside a date say: the title names where it starts
      const entre = d.dias_novos.some((dia) => dia > d.anterior.data && dia < d.atual.data);
      return {
        titulo: `${onde(d)}: ${preco(d.atual.valor, d.unidade)} em ${formatDateBR(d.atual.data)}, ${direcao(d)}${entre ? ` desde ${formatDateBR(d.anterior.data)}` : ""}`,
        resumo:
          `${ondeLongo(d)} passou de ${preco(d.anterior.valor, d.unidade)} para ${preco(d.atual.valor, d.unidade)} (${quando}): ` +
          `${sinal(abs)}${variacaoAbsoluta(Math.abs(abs), d.unidade)} (${sinal(d.variacao.percentual)}${formatDecimalBR(Math.abs(d.variacao.percentual))}%). Fonte: ${nomeFonte(d.fonte)}.`,
        path: d.path,
        ancora: ancoraSerie(d.serie),
      };
    }
    case "historico_revisado": {
      const d = e.dados;
      const n = d.revisoes.length;
      return {
        titulo: `${onde(d)}: ${n} ${n === 1 ? "dia revisado" : "dias revisados"} no histórico`,
        resumo:
          `${nomeFonte(d.fonte)} revisou ${n === 1 ? "um dia passado" : `${n} dias passados`} de ${ondeLongo(d)}: ` +
          d.revisoes.map((r) => `${formatDateBR(r.data)} de ${preco(r.anterior, d.unidade)} para ${preco(r.atual, d.unidade)}`).join("; ") +
          ".",
        path: d.path,
        ancora: ancoraSerie(d.serie),
      };
    }
    case "cotacao_atualizada": {
      const d = e.dados;
      const ns = d.series.length;
      const partes = [`${d.dias_novos} ${d.dias_novos === 1 ? "dia novo" : "dias novos"}`];
      if (d.revisoes > 0) partes.push(`${d.revisoes} ${d.revisoes === 1 ? "revisão" : "revisões"}`);
      return {
        titulo: `Cotações atualizadas: ${partes.join(" e ")} em ${ns} ${ns === 1 ? "série" : "séries"}`,
        resumo: `Séries com dados novos: ${d.series.map((s) => `${ondeDoId(s.serie)}, ${preco(s.valor, s.unidade)} em ${formatDateBR(s.data)}`).join("; ")}.`,
        path: "api/v1/cotacao.json",
        ancora: null,
      };
    }
  }
}

/** The feed for a site root (absolute URL with a trailing slash). */
export function renderFeed(file: EventosFile, siteUrl: string = SITE_URL): string {
  const x = escapeXml;
  const feedUrl = siteUrl + FEED_PATH;
  const lines = [
    `<?xml version="1.0" encoding="utf-8"?>`,
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="pt-BR">`,
    `  <id>${x(feedUrl)}</id>`,
    `  <title>${x(PROJECT_NAME)}: eventos de preços</title>`,
    `  <subtitle>Mudanças de preço, revisões e atualizações das cotações de ${nomesDosProdutos()}.</subtitle>`,
    `  <updated>${x(file.atualizado)}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${x(feedUrl)}"/>`,
    `  <link rel="alternate" type="text/html" href="${x(siteUrl)}"/>`,
    `  <link rel="related" type="application/json" href="${x(siteUrl + EVENTOS_PATH)}"/>`,
    `  <author><name>${x(PROJECT_NAME)}</name><uri>${x(siteUrl)}</uri></author>`,
    `  <rights>${x(licenseShort(SOURCES))}</rights>`,
    `  <generator>${x(PROJECT_NAME)}</generator>`,
  ];
  for (const e of file.eventos) {
    const d = describeEvento(e);
    lines.push(
      `  <entry>`,
      `    <id>${x(`${siteUrl}${EVENTOS_PATH}#${e.id}`)}</id>`,
      `    <title>${x(d.titulo)}</title>`,
      `    <updated>${x(e.criado_em)}</updated>`,
      `    <published>${x(e.criado_em)}</published>`,
      `    <category term="${x(e.tipo)}" label="${x(TIPO_ROTULO[e.tipo])}"/>`,
      // a person opens the series on the dashboard; a program follows the JSON
      `    <link rel="alternate" type="text/html" href="${x(d.ancora ? `${siteUrl}#${d.ancora}` : siteUrl)}"/>`,
      `    <link rel="related" type="application/json" href="${x(siteUrl + d.path)}"/>`,
      `    <summary type="text">${x(d.resumo)}</summary>`,
      `  </entry>`,
    );
  }
  lines.push(`</feed>`);
  return lines.join("\n") + "\n";
}
