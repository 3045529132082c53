/**
 * The shapes of the published files, under the names the pipeline uses. They are not written
 * here: ../../schemas/*.schema.json is the public contract, and ./publicados.gerados.ts
 * is generated from it (`npm run gerar`), so code that builds or reads a file the schema does
 * not describe fails to type-check. test/schemas.test.ts checks that every rendered file
 * validates against the schema itself.
 */
import type {
  Cotacao,
  CotacaoPraca,
  CotacaoUf,
  Data,
  DataHora,
  Dinheiro,
  EstadoPagina,
  HistoricoEntrada,
  Index,
  Proveniencia as ProvenienciaGerada,
  Serie,
  Status,
  Variacao as VariacaoGerada,
} from "./publicados.gerados.ts";

export type Money = Dinheiro;
/** YYYY-MM-DD */
export type IsoDate = Data;
/** 2026-09-06T22:39:05-03:00 */
export type IsoDateTime = DataHora;

/** One day of a series; one line in the file. */
export type HistoricoEntry = HistoricoEntrada;
/** One praça of a Scot UF on the latest day, with every column Scot publishes. */
export type PracaQuote = CotacaoPraca;
export type Proveniencia = ProvenienciaGerada;
export type Variacao = VariacaoGerada;

/** cotacao/{produto}.json and cotacao/{produto}/{UF}.json */
export type SerieFile = Serie;

/** cotacao.json and cotacao/uf/{UF}.json */
export type AggregateFile = Cotacao;
/** The products of the aggregate, each with its unit and day. */
export type AggregateKey = keyof Cotacao["unidades"];
export type UfQuote = CotacaoUf;

/** index.json */
export type IndexFile = Index;
export type IndexSeries = Index["series"][number];

/** status.json */
export type StatusFile = Status;
export type StatusSource = Status["fontes"][number];
export type StatusPage = StatusSource["paginas"][number];
export type SourceState = StatusSource["estado"];
/** "ok" or a FailureKind (../domain/errors.ts); the schema's enum is the list that may be published */
export type PageState = EstadoPagina;
