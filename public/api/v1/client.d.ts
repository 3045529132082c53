// Tipos de client.js (API estática v1 da Cotação Aberta). Gerado por `npm run gerar` a partir de
// schemas/*.schema.json (o contrato completo, publicado em /schemas/) e de
// pipeline/openapi/client.d.template.ts; não edite este arquivo, edite os schemas ou o modelo.

/** Two-letter state code, e.g. "MS". */
export type UF = Uf;
/** YYYY-MM-DD */
export type Dia = Data;
/** One day of a series (historico[i]). */
export type HistoricoEntry = HistoricoEntrada;
/** A state's reference praça in cotacao/uf/{UF}.json. */
export type UfQuote = CotacaoUf;
/** One praça of a state series on its latest day. */
export type PracaQuote = CotacaoPraca;

export declare const PRODUTOS: readonly Produto[];
export declare const DEFAULT_MIRRORS: readonly string[];
export declare const DEFAULT_TIMEOUT_MS: number;

/** Said through `onAviso` when a mirror (a fallback, or the first one's CDN edge) answered with older data than this client had already received. */
export interface Aviso {
  tipo: "defasado";
  /** the URL that answered */
  url: string;
  /** `atualizado` of what it answered */
  atualizado: string | null;
  /** the newest `atualizado` received before for the same file */
  anterior: string | null;
  /** what the mirrors before it answered */
  tentativas: Array<{ url: string; motivo: string }>;
}

export interface ClientOptions {
  /** site roots tried in order; default GitHub Pages, then jsDelivr */
  mirrors?: readonly string[];
  /** per mirror, whole request; default 8000 */
  timeoutMs?: number;
  /** default globalThis.fetch */
  fetch?: typeof fetch;
  /** called when a mirror's file is older than one this client already received (the result also says `defasado: true`) */
  onAviso?: (aviso: Aviso) => void;
}

/**
 * Where a document came from: non-enumerable properties of every result (JSON.stringify and deep
 * equality see only the published fields).
 */
export interface Origem {
  /** the mirror root that answered */
  readonly origem: string;
  /** its position in `mirrors` (0 = the first: GitHub Pages by default) */
  readonly espelho: number;
  /** true when a mirror (a fallback, or the first one's CDN edge) answered with an `atualizado` older than this client had already received for the same file */
  readonly defasado: boolean;
}

export interface Intervalo {
  de?: Dia;
  ate?: Dia;
}

/** A state code as the client accepts it ("MS" or "ms"); anything else is rejected when called. */
export type UFArg = UF | Lowercase<UF> | (string & {});

export interface CotacaoClient {
  readonly mirrors: readonly string[];
  /** the aggregate; with `uf`, plus that state's boi and vaca gorda */
  cotacao(opts?: { uf?: UFArg }): Promise<Cotacao & Origem>;
  /** one series (national, or of a state), with its whole history; a national series also answers for its own UF (the `uf` of its file) when that state has no file of its own */
  serie(produto: Produto, uf?: UFArg | null): Promise<Serie & Origem>;
  /** index.json: every series, source, product and UF (paths: see resolverCaminho) */
  index(): Promise<Index & Origem>;
  /** status.json: each source's last attempt and success, each series' last day */
  status(): Promise<Status & Origem>;
  /** eventos.json: the recent events, newest first */
  eventos(): Promise<Eventos & Origem>;
  /** the JSON file a path of index.json names (e.g. a series' `path`) */
  arquivo(caminho: string): Promise<Record<string, unknown> & Origem>;
  /** days of a series from `de` to `ate` (inclusive), oldest first */
  historico(produto: Produto, uf?: UFArg | null, intervalo?: Intervalo): Promise<HistoricoEntry[] & Origem>;
  historico(produto: Produto, intervalo: Intervalo): Promise<HistoricoEntry[] & Origem>;
}

export declare class CotacaoError extends Error {
  constructor(message: string, tentativas?: Array<{ url: string; motivo: string }>);
  readonly tentativas: Array<{ url: string; motivo: string }>;
}

export declare function createClient(options?: ClientOptions): CotacaoClient;

/** A path of index.json ("cotacao/{produto}.json", or the older "api/v1/cotacao/{produto}.json") as a URL, from index.json's own URL. */
export declare function resolverCaminho(caminho: string, indexUrl: string | URL): string;

// Formas dos arquivos publicados, geradas de schemas/.

/**
 * Valor em reais (R$) escrito como número JSON com ponto decimal e no máximo duas casas decimais (347.7 = R$ 347,70). O formato "decimal2" exige que a forma decimal mais curta do número tenha até duas casas: 347.70000000000005 é rejeitado.
 *
 * schemas/common.schema.json#/$defs/dinheiro
 */
export type Dinheiro = number;

/**
 * Preço em reais (R$), positivo, com no máximo duas casas decimais.
 *
 * schemas/common.schema.json#/$defs/preco
 */
export type Preco = Dinheiro;

/**
 * Percentual com no máximo duas casas decimais (1.25 = 1,25%).
 *
 * schemas/common.schema.json#/$defs/percentual
 */
export type Percentual = number;

/**
 * Data de calendário no formato ISO 8601 AAAA-MM-DD (ex.: 2026-09-04).
 *
 * schemas/common.schema.json#/$defs/data
 */
export type Data = string;

/**
 * Data e hora ISO 8601 ao segundo, com o deslocamento de fuso explícito (ex.: 2026-09-06T22:39:05-03:00, horário de Brasília).
 *
 * schemas/common.schema.json#/$defs/dataHora
 */
export type DataHora = string;

/**
 * Identificador do produto: boi_gordo, vaca_gorda, soja, milho, bezerro, novilha_gorda, boi_china, bezerro_desmama, bezerro_reposicao, garrote, boi_magro, boi_gordo_prazo, trigo, arroz, arroz_alto_rendimento, cafe_arabica, cafe_robusta, algodao, acucar_cristal_sp, acucar_santos, laranja_industria, laranja_pera, laranja_industria_precoce, frango_congelado, frango_resfriado, suino_vivo ou suino_carcaca.
 *
 * schemas/common.schema.json#/$defs/produto
 */
export type Produto =
  | "boi_gordo"
  | "vaca_gorda"
  | "soja"
  | "milho"
  | "bezerro"
  | "novilha_gorda"
  | "boi_china"
  | "bezerro_desmama"
  | "bezerro_reposicao"
  | "garrote"
  | "boi_magro"
  | "boi_gordo_prazo"
  | "trigo"
  | "arroz"
  | "arroz_alto_rendimento"
  | "cafe_arabica"
  | "cafe_robusta"
  | "algodao"
  | "acucar_cristal_sp"
  | "acucar_santos"
  | "laranja_industria"
  | "laranja_pera"
  | "laranja_industria_precoce"
  | "frango_congelado"
  | "frango_resfriado"
  | "suino_vivo"
  | "suino_carcaca";

/**
 * Unidade do preço: "@" (arroba, 15 kg de carcaça), "kg" (quilo (de peso vivo no boi do RS e na reposição, de carcaça ou de produto nos outros: a região de cada série diz)), "sc60kg" (saca de 60 kg), "cabeca" (por cabeça), "sc50kg" (saca de 50 kg), "t" (tonelada), "cx40_8kg" (caixa de 40,8 kg (laranja)) ou "ct_lb" (centavos de real por libra-peso (algodão)).
 *
 * schemas/common.schema.json#/$defs/unidade
 */
export type Unidade = "@" | "kg" | "sc60kg" | "cabeca" | "sc50kg" | "t" | "cx40_8kg" | "ct_lb";

/**
 * Sigla de uma das 27 unidades da federação.
 *
 * schemas/common.schema.json#/$defs/uf
 */
export type Uf =
  | "AC"
  | "AL"
  | "AM"
  | "AP"
  | "BA"
  | "CE"
  | "DF"
  | "ES"
  | "GO"
  | "MA"
  | "MG"
  | "MS"
  | "MT"
  | "PA"
  | "PB"
  | "PE"
  | "PI"
  | "PR"
  | "RJ"
  | "RN"
  | "RO"
  | "RR"
  | "RS"
  | "SC"
  | "SE"
  | "SP"
  | "TO";

/**
 * Identificador da fonte original dos números: "cepea" (CEPEA/ESALQ-USP), "scot" (Scot Consultoria) ou "datagro" (Datagro). Dados obtidos por um espelho mantêm a fonte original.
 *
 * schemas/common.schema.json#/$defs/fonte
 */
export type Fonte = "cepea" | "scot" | "datagro";

/**
 * Moeda dos valores: sempre BRL (real).
 *
 * schemas/common.schema.json#/$defs/moeda
 */
export type Moeda = "BRL";

/**
 * Versão da API: sempre "v1".
 *
 * schemas/common.schema.json#/$defs/apiVersion
 */
export type ApiVersion = "v1";

/**
 * Texto não vazio.
 *
 * schemas/common.schema.json#/$defs/texto
 */
export type Texto = string;

/**
 * Variação do último valor em relação ao dia anterior da série.
 *
 * schemas/common.schema.json#/$defs/variacao
 */
export interface Variacao {
  /**
   * Data do valor anterior (AAAA-MM-DD).
   */
  data_anterior: Data;
  /**
   * Valor no dia anterior, em R$.
   */
  anterior: Preco;
  /**
   * Diferença na unidade da série (último menos anterior): R$, ou centavos de R$ no algodão (ct_lb); negativa quando o preço caiu.
   */
  absoluta: Dinheiro;
  /**
   * Diferença em percentual do valor anterior, com duas casas decimais.
   */
  percentual: Percentual;
}

/**
 * Um dia da série (uma linha no arquivo).
 *
 * schemas/common.schema.json#/$defs/historicoEntrada
 */
export interface HistoricoEntrada {
  /**
   * Dia da cotação (AAAA-MM-DD).
   */
  data: Data;
  /**
   * Valor de referência da série nesse dia, em R$ por unidade (no algodão, unidade ct_lb, em centavos de R$ por libra-peso: 421.71 = R$ 4,2171/lb).
   */
  valor: Preco;
  /**
   * CEPEA: o mesmo indicador em dólares, em US$ por unidade (no algodão, unidade ct_lb, em centavos de US$ por libra-peso).
   */
  valor_usd?: Preco;
  /**
   * Scot: preço bruto para pagamento em 30 dias, em R$.
   */
  valor_30d?: Preco;
  /**
   * Scot, praça de referência: diferencial de base em relação a São Paulo, em %.
   */
  base_sp?: number;
  /**
   * Scot, praça de referência: preço à vista descontado o Funrural, em R$.
   */
  funrural_avista?: Preco;
  /**
   * Scot, praça de referência: preço a 30 dias descontado o Funrural, em R$.
   */
  funrural_30d?: Preco;
  /**
   * Scot, praça de referência: preço à vista sem o Funrural, com o desconto de 0,2% do Senar, em R$.
   */
  senar_avista?: Preco;
  /**
   * Scot, praça de referência: preço a 30 dias sem o Funrural, com o desconto de 0,2% do Senar, em R$.
   */
  senar_30d?: Preco;
  /**
   * Scot, praça de referência: tendência indicada pela fonte.
   */
  tendencia?: "alta" | "estavel" | "baixa";
  /**
   * Séries de UF da Scot: preço à vista de cada praça da UF nesse dia, na ordem da fonte (chave: nome da praça).
   */
  pracas?: {
    [k: string]: Preco;
  };
}

/**
 * Uma praça da UF no último dia, com todas as colunas que a Scot Consultoria publica.
 *
 * schemas/common.schema.json#/$defs/cotacaoPraca
 */
export interface CotacaoPraca {
  /**
   * Nome da praça como a fonte o escreve.
   */
  praca: Texto;
  /**
   * Preço bruto à vista, em R$ por unidade.
   */
  valor: Preco;
  /**
   * Unidade do preço da praça.
   */
  unidade: Unidade;
  /**
   * Preço bruto para pagamento em 30 dias, em R$.
   */
  valor_30d?: Preco;
  /**
   * Diferencial de base em relação a São Paulo (coluna "# base" da Scot), em %, como a Scot publica (RS: 7,11 sobre preço por kg); negativo quando abaixo de SP.
   */
  base_sp?: number;
  /**
   * Preço à vista descontado o Funrural, em R$.
   */
  funrural_avista?: Preco;
  /**
   * Preço a 30 dias descontado o Funrural, em R$.
   */
  funrural_30d?: Preco;
  /**
   * Preço à vista sem o desconto do Funrural, mas com o desconto de 0,2% do Senar (nota da Scot), em R$.
   */
  senar_avista?: Preco;
  /**
   * Preço a 30 dias sem o desconto do Funrural, mas com o desconto de 0,2% do Senar (nota da Scot), em R$.
   */
  senar_30d?: Preco;
  /**
   * Tendência indicada pela fonte: alta, estavel ou baixa.
   */
  tendencia?: "alta" | "estavel" | "baixa";
  /**
   * Nota de rodapé da fonte sobre a praça.
   */
  nota?: Texto;
}

/**
 * De onde vieram os números da série, quando foram coletados e sob quais termos.
 *
 * schemas/common.schema.json#/$defs/proveniencia
 */
export interface Proveniencia {
  /**
   * Fonte original dos números.
   */
  fonte: Fonte;
  /**
   * Nome da fonte por extenso.
   */
  nome: Texto;
  /**
   * Página da fonte de onde a série é lida.
   */
  url: string;
  /**
   * Quando os dados hoje na série foram coletados (a execução que os alterou por último).
   */
  coletado_em: DataHora;
  /**
   * Espelho pelo qual os dados chegaram (ex.: "noticias-agricolas"), ou null quando vieram da própria fonte.
   */
  via: string | null;
  /**
   * Página do espelho, ou null quando os dados vieram da própria fonte.
   */
  via_url: string | null;
  /**
   * Licença ou termos de uso dos números da fonte.
   */
  licenca: Texto;
  /**
   * Como a fonte pede para ser citada.
   */
  citacao: Texto;
  /**
   * Os termos da fonte em uma frase.
   */
  termos: Texto;
}

/**
 * Preço de referência de um produto em uma UF (praça de referência da Scot Consultoria).
 *
 * schemas/common.schema.json#/$defs/cotacaoUf
 */
export interface CotacaoUf {
  /**
   * UF da cotação.
   */
  uf: Uf;
  /**
   * Preço bruto à vista na praça de referência, em R$ por unidade.
   */
  preco: Preco;
  /**
   * Praça de referência da UF.
   */
  praca: Texto;
  /**
   * Unidade do preço (o RS é cotado em R$/kg).
   */
  unidade: Unidade;
  /**
   * Dia da cotação (AAAA-MM-DD).
   */
  data: Data;
  /**
   * Dia da cotação (AAAA-MM-DD), o mesmo que data, com o nome que a cotação única usa (clientes da API original leem boi_gordo_uf.data_cotacao).
   */
  data_cotacao: Data;
}

/**
 * Cada página aceita que mudou dados publicados deixa aqui um registro, em ordem de registro, uma linha por captura: de onde veio (fonte, página, URL, espelho), quando foi buscada, o SHA-256 dos bytes lidos, os dias que trouxe, os dias que acrescentou a cada série e cada valor publicado que revisou. Um dia de qualquer série se rastreia até a captura que o trouxe ("novos") e cada revisão até a captura que a fez ("revisoes"). Um arquivo por ano de registro (horário de Brasília); só cresce.
 *
 * schemas/capturas.schema.json
 */
export interface Capturas {
  /**
   * Versão da API.
   */
  api_version: ApiVersion;
  /**
   * Ano (de registro) das capturas deste arquivo.
   */
  ano: number;
  /**
   * As capturas, da mais antiga para a mais nova.
   */
  capturas: Captura[];
}

/**
 * api/v1/cotacao.json e api/v1/cotacao/uf/{UF}.json: o último valor de referência de cada produto, cada um com o seu dia. Arquivo pequeno: sem histórico (veja api/v1/cotacao/{produto}.json).
 *
 * schemas/cotacao.schema.json
 */
export interface Cotacao {
  /**
   * Indicador do Boi Gordo CEPEA/ESALQ (estado de São Paulo, à vista), em R$/@; null quando ainda não há dado.
   */
  boi_gordo_cepea_sp: Preco | null;
  /**
   * Região a que se refere boi_gordo_cepea_sp, por extenso.
   */
  boi_gordo_praca: Texto;
  /**
   * Vaca gorda, praça de referência de São Paulo da Scot Consultoria, em R$/@; null quando ainda não há dado.
   */
  vaca_gorda: Preco | null;
  /**
   * Indicador da Soja CEPEA/ESALQ Paranaguá, em R$/saca de 60 kg; null quando ainda não há dado.
   */
  soja: Preco | null;
  /**
   * Indicador do Milho ESALQ/BM&FBovespa (Campinas, SP), em R$/saca de 60 kg; null quando ainda não há dado.
   */
  milho: Preco | null;
  /**
   * Indicador do Bezerro CEPEA/ESALQ Mato Grosso do Sul, em R$/cabeça; null quando ainda não há dado.
   */
  bezerro_ms: Preco | null;
  /**
   * Unidade de cada valor acima.
   */
  unidades: {
    /**
     * Unidade de boi_gordo_cepea_sp.
     */
    boi_gordo_cepea_sp: Unidade;
    /**
     * Unidade de vaca_gorda.
     */
    vaca_gorda: Unidade;
    /**
     * Unidade de soja.
     */
    soja: Unidade;
    /**
     * Unidade de milho.
     */
    milho: Unidade;
    /**
     * Unidade de bezerro_ms.
     */
    bezerro_ms: Unidade;
  };
  /**
   * Dia de cada valor acima (produtos diferentes podem ser de dias diferentes); null quando o valor é null.
   */
  datas: {
    /**
     * Dia de boi_gordo_cepea_sp.
     */
    boi_gordo_cepea_sp: Data | null;
    /**
     * Dia de vaca_gorda.
     */
    vaca_gorda: Data | null;
    /**
     * Dia de soja.
     */
    soja: Data | null;
    /**
     * Dia de milho.
     */
    milho: Data | null;
    /**
     * Dia de bezerro_ms.
     */
    bezerro_ms: Data | null;
  };
  /**
   * Só em api/v1/cotacao/uf/{UF}.json: boi gordo na praça de referência da UF (Scot Consultoria); null quando a UF ainda não tem dado.
   */
  boi_gordo_uf?: CotacaoUf | null;
  /**
   * Só em api/v1/cotacao/uf/{UF}.json: vaca gorda na praça de referência da UF (Scot Consultoria); null quando a UF ainda não tem dado.
   */
  vaca_gorda_uf?: CotacaoUf | null;
  /**
   * Quando algum valor deste arquivo mudou pela última vez (horário da execução que trouxe o dado).
   */
  atualizado: DataHora;
  /**
   * As fontes dos números, por extenso.
   */
  fonte: Texto;
  /**
   * Versão da API.
   */
  api_version: ApiVersion;
  /**
   * Licença da compilação e termos de cada fonte, em resumo.
   */
  license: Texto;
}

/**
 * Descritor Frictionless (Tabular Data Package, https://specs.frictionlessdata.io/) de todos os CSV canônicos de api/v1/: o histórico de cada série, as praças de cada série de UF e o arquivo longo historico.csv, cada um com o seu Table Schema (campos tipados, chave primária, unidade nas descrições) e os termos da fonte dos números. As variantes para o Excel (*.excel.csv) são as mesmas tabelas e não são listadas. Os caminhos são relativos a api/v1/. Este schema descreve o subconjunto da especificação que o arquivo usa; o validador confere também que os recursos são exatamente os CSV publicados, com os mesmos cabeçalhos.
 *
 * schemas/datapackage.schema.json
 */
export interface Datapackage {
  /**
   * Perfil Frictionless do pacote.
   */
  profile: "tabular-data-package";
  /**
   * Nome do pacote.
   */
  name: string;
  /**
   * Título do pacote.
   */
  title: Texto;
  /**
   * O que o pacote contém e sob quais termos.
   */
  description: Texto;
  /**
   * Endereço do site.
   */
  homepage: string;
  /**
   * Palavras-chave.
   */
  keywords: Texto[];
  /**
   * Licença da compilação (seleção, estrutura e arquivos): os números continuam sob os termos de cada fonte (licenses de cada recurso).
   *
   * @minItems 1
   */
  licenses: {
    /**
     * Identificador SPDX da licença.
     */
    name: string;
    /**
     * Nome da licença.
     */
    title: Texto;
    /**
     * Texto legal da licença.
     */
    path: string;
  }[];
  /**
   * As fontes dos números.
   *
   * @minItems 1
   */
  sources: DatapackageFonte[];
  /**
   * Um recurso por CSV canônico.
   *
   * @minItems 1
   */
  resources: Recurso[];
}

/**
 * Os eventos mais recentes das atualizações, do mais novo para o mais antigo: todos os da última execução que trouxe dados novos e, das anteriores, os mais novos até completar `limite` itens (uma execução que sozinha gere mais de `limite` eventos fica inteira, e a lista passa de `limite`). O id de um evento vem do seu conteúdo (série, dias, valores), nunca do horário: repetir uma execução com os mesmos dados não acrescenta nada, e um conteúdo que volta depois (um valor revisado, desfeito e refeito) é um evento novo, com outro id. Cada evento tem também um número de sequência, `seq`, que cresce de 1 em 1 de evento em evento e nunca se repete: quem guardou o maior `seq` que já leu sabe com exatidão se perdeu algum (perdeu se o menor `seq` listado agora for maior que esse número mais 1). É o mesmo corpo JSON enviado aos webhooks e a mesma lista do feed Atom (api/v1/feed.xml).
 *
 * schemas/eventos.schema.json
 */
export interface Eventos {
  api_version: ApiVersion;
  /**
   * criado_em do evento mais novo (a última execução que trouxe dados novos); 1970-01-01T00:00:00-03:00 quando ainda não há eventos.
   */
  atualizado: DataHora;
  /**
   * Quantos eventos o arquivo guarda, no máximo, contando os das execuções anteriores: os da última execução ficam todos, mesmo quando sozinhos passam desse número.
   */
  limite: number;
  /**
   * Caminho do feed Atom com os mesmos eventos.
   */
  feed: "api/v1/feed.xml";
  /**
   * Eventos, do mais novo para o mais antigo: o `seq` de cada um é o do anterior menos 1, sem buracos.
   */
  eventos: Evento[];
}

/**
 * api/v1/index.json: fontes e seus termos, produtos, UFs e todas as séries publicadas, com caminho, período e número de dias. Todos os caminhos (path, recente, csv, csv_excel, pracas_csv) são relativos ao diretório do próprio index.json (api/v1/): resolva-os com new URL(caminho, endereçoDoIndex), o que funciona em qualquer espelho do site.
 *
 * schemas/index.schema.json
 */
export interface Index {
  /**
   * Versão da API.
   */
  api_version: ApiVersion;
  /**
   * Quando o catálogo mudou pela última vez.
   */
  atualizado: DataHora;
  /**
   * Licença da compilação e termos de cada fonte, por extenso.
   */
  license: Texto;
  /**
   * As fontes dos números e os seus termos de uso.
   *
   * @minItems 1
   */
  fontes: {
    /**
     * Identificador da fonte.
     */
    id: Fonte;
    /**
     * Nome da fonte por extenso.
     */
    nome: Texto;
    /**
     * Endereço do site da fonte.
     */
    site: string;
    /**
     * Se a fonte é consultada pelas execuções atuais.
     */
    ativa: boolean;
    /**
     * Licença ou termos de uso dos números da fonte.
     */
    licenca: Texto;
    /**
     * Como a fonte pede para ser citada.
     */
    citacao: Texto;
    /**
     * Os termos da fonte em uma frase.
     */
    termos: Texto;
    /**
     * Página com os termos de uso da fonte.
     */
    termos_url: string;
  }[];
  /**
   * Os produtos e o arquivo da referência nacional de cada um.
   *
   * @minItems 1
   */
  produtos: {
    /**
     * Identificador do produto.
     */
    produto: Produto;
    /**
     * Nome do produto por extenso.
     */
    nome: Texto;
    /**
     * Unidade da referência nacional.
     */
    unidade: Unidade;
    /**
     * Caminho do arquivo da referência nacional, relativo a api/v1/ (cotacao/{produto}.json), ou null quando o produto só tem séries por UF (veja series).
     */
    path: Caminho | null;
  }[];
  /**
   * As UFs com séries e o arquivo agregado de cada uma.
   */
  ufs: {
    /**
     * Sigla da UF.
     */
    uf: Uf;
    /**
     * Nome da UF por extenso.
     */
    nome: Texto;
    /**
     * Caminho do arquivo agregado da UF, relativo a api/v1/ (cotacao/uf/{UF}.json).
     */
    path: Caminho;
  }[];
  /**
   * Todas as séries publicadas, na ordem do catálogo.
   *
   * @minItems 1
   */
  series: {
    /**
     * Identificador da série: {produto} ou {produto}/{UF}.
     */
    id: string;
    /**
     * Caminho do arquivo JSON da série, relativo a api/v1/ (cotacao/{produto}.json ou cotacao/{produto}/{UF}.json).
     */
    path: string;
    /**
     * Caminho do último ano da série, relativo a api/v1/ (recente/{produto}.json ou recente/{produto}/{UF}.json): o mesmo documento de path (schemas/serie.schema.json), com a mesma cotação do dia, e o histórico só a partir de 366 dias antes do último dia (e ao menos os dois últimos dias). Para gráficos de 30 dias ou de um ano sem baixar o histórico inteiro.
     */
    recente: string;
    /**
     * Caminho do histórico da série em CSV (data, valor, unidade e as outras colunas da série; vírgula, ponto decimal, UTF-8), relativo a api/v1/.
     */
    csv: string;
    /**
     * O mesmo CSV para o Excel em português (';', vírgula decimal, UTF-8 com BOM, CRLF), relativo a api/v1/.
     */
    csv_excel: string;
    /**
     * Séries de UF: todas as praças, uma linha por praça por dia (data, praca, valor, unidade), relativo a api/v1/; ao lado, a variante para o Excel (.pracas.excel.csv). null na referência nacional.
     */
    pracas_csv: string | null;
    /**
     * Produto da série.
     */
    produto: Produto;
    /**
     * UF da série; na referência nacional, a UF onde o indicador é cotado (boi gordo CEPEA: SP), ou null quando ele é média de mais de um estado.
     */
    uf: Uf | null;
    /**
     * true na referência nacional do produto (arquivo cotacao/{produto}.json), false numa série de UF.
     */
    nacional: boolean;
    /**
     * Praça de referência da série de UF, ou null.
     */
    praca: string | null;
    /**
     * De onde é o preço, por extenso.
     */
    regiao: Texto;
    /**
     * Fonte original dos números.
     */
    fonte: Fonte;
    /**
     * Unidade dos valores.
     */
    unidade: Unidade;
    /**
     * Dia mais antigo do histórico, ou null se a série ainda não tem dados.
     */
    primeira_data: Data | null;
    /**
     * Dia mais recente do histórico, ou null se a série ainda não tem dados.
     */
    ultima_data: Data | null;
    /**
     * Número de dias no histórico.
     */
    pontos: number;
    /**
     * Valor do dia mais recente (o mesmo de `valor` no arquivo da série), para mostrar todas as séries sem baixar cada histórico; null se a série não tem dados.
     */
    valor: Preco | null;
    /**
     * Variação do dia mais recente contra o anterior (a mesma do arquivo da série), ou null.
     */
    variacao: Variacao | null;
    /**
     * Licença da compilação e termos da fonte da série.
     */
    license: Texto;
  }[];
}

/**
 * Resposta de POST /api/v1/romaneio e resultado da página romaneio/: os campos lidos de um romaneio (de abate ou de carga), a confiança de cada um, as conferências que falharam e a comparação com o preço de referência do dia. Valores em R$ com duas casas (calculados em centavos inteiros), pesos em kg e quantidades com até duas casas.
 *
 * schemas/romaneio.schema.json
 */
export interface Romaneio {
  leitura: LeituraRomaneio;
  comparacao: ComparacaoRomaneio;
  arquivo: ArquivoLido;
  /**
   * Cota diária da chave para leituras de romaneio (só na resposta do servidor).
   */
  rate_limit?: {
    diario: number;
    restante: number;
  };
}

/**
 * api/v1/cotacao/{produto}.json (referência nacional; uf é o lugar do indicador, ou null) e api/v1/cotacao/{produto}/{UF}.json (UF, com praça de referência e todas as praças do último dia): a última cotação e o histórico completo, um dia por entrada, do mais antigo ao mais recente (a ordem é verificada pelo validador, pois JSON Schema não a expressa). O mesmo documento é publicado em api/v1/recente/{produto}.json e api/v1/recente/{produto}/{UF}.json com o histórico cortado ao último ano (as entradas a partir de 366 dias antes do último dia, e ao menos as duas últimas): os demais campos são os do arquivo completo.
 *
 * schemas/serie.schema.json
 */
export interface Serie {
  /**
   * Produto da série.
   */
  produto: Produto;
  /**
   * Nome do produto por extenso.
   */
  nome: Texto;
  /**
   * UF da série; na referência nacional, a UF onde o indicador é cotado (boi gordo CEPEA: SP; soja Paranaguá: PR), ou null quando ele é média de mais de um estado.
   */
  uf: Uf | null;
  /**
   * De onde é o preço, por extenso.
   */
  regiao: Texto;
  /**
   * Último valor da série (igual ao da última entrada do histórico), em R$ por unidade (no algodão, unidade ct_lb, em centavos de R$ por libra-peso).
   */
  valor: Preco;
  /**
   * Moeda do valor.
   */
  moeda: Moeda;
  /**
   * Unidade do valor.
   */
  unidade: Unidade;
  /**
   * Fonte original dos números.
   */
  fonte: Fonte;
  /**
   * Presente quando a fonte diz que o preço já é sem Funrural (o indicador do boi gordo do CEPEA): as palavras da própria fonte. Ausente: preço bruto.
   */
  sem_funrural?: string;
  /**
   * Dia do último valor (igual ao da última entrada do histórico).
   */
  data_cotacao: Data;
  /**
   * Variação em relação ao dia anterior da série, ou null quando a série tem um só dia.
   */
  variacao: Variacao | null;
  /**
   * A cotação em uma frase, pronta para exibir (ex.: "Boi gordo a R$ 347,70/@ em 04/09/2026, ...").
   */
  bordao: Texto;
  /**
   * Só nos arquivos de UF: praça de referência da UF, cujo preço é o valor da série.
   */
  praca?: Texto;
  /**
   * Só nos arquivos de UF: todas as praças da UF no último dia, na ordem da fonte.
   *
   * @minItems 1
   */
  pracas?: CotacaoPraca[];
  /**
   * Quando os dados desta série mudaram pela última vez (horário da execução que os trouxe).
   */
  atualizado: DataHora;
  /**
   * Fonte, espelho, data da coleta e termos dos números.
   */
  proveniencia: Proveniencia;
  /**
   * Licença da compilação e termos da fonte.
   */
  license: Texto;
  /**
   * Versão da API.
   */
  api_version: ApiVersion;
  /**
   * Um dia por entrada, do mais antigo ao mais recente, sem datas repetidas; a última entrada é a cotação atual.
   *
   * @minItems 1
   */
  historico: HistoricoEntrada[];
}

/**
 * api/v1/status.json: para cada fonte e cada página, a última tentativa, o último sucesso, o estado e o motivo; para cada série, o último dia publicado.
 *
 * schemas/status.schema.json
 */
export interface Status {
  /**
   * Versão da API.
   */
  api_version: ApiVersion;
  /**
   * Quando este arquivo mudou pela última vez.
   */
  atualizado: DataHora;
  /**
   * Estado de cada fonte.
   */
  fontes: {
    /**
     * Identificador da fonte.
     */
    id: Fonte;
    /**
     * Nome da fonte por extenso.
     */
    nome: Texto;
    /**
     * Dias sem um dia novo de dados depois dos quais a fonte (e cada série dela) é dada como desatualizada (stale): stale quando a idade do último dia passa deste número. A idade é contada como diz contagem_idade: em dias úteis (segunda a sexta, menos os feriados nacionais, o Carnaval de segunda e terça, a Sexta-feira Santa e Corpus Christi) para as fontes que só publicam em dias úteis, como todas as atuais; em dias corridos nos arquivos escritos antes de contagem_idade.
     */
    max_idade_dias: number;
    /**
     * Como a idade é contada contra max_idade_dias, para a fonte e para cada série dela: "dias_uteis" (dias depois do último dado até hoje que são de segunda a sexta e não são feriado nacional — 01/01, 21/04, 01/05, 07/09, 12/10, 02/11, 15/11, 20/11 a partir de 2024, 25/12 — nem segunda ou terça de Carnaval, Sexta-feira Santa ou Corpus Christi, datas da Páscoa; a Quarta-feira de Cinzas, 24/12, 31/12 e os feriados estaduais e municipais contam como dias úteis) ou "dias_corridos" (todos os dias). Ausente em arquivos escritos antes deste campo, que contavam dias corridos.
     */
    contagem_idade?: "dias_uteis" | "dias_corridos";
    /**
     * ok: última tentativa bem-sucedida (também quando um espelho serviu uma página cuja própria página falhou: veja estado_da_fonte nas páginas); stale: sem dia novo há mais de max_idade_dias (contados como diz contagem_idade); blocked: bloqueada por desafio anti-robô; failed: a última tentativa falhou; disabled: fonte desativada.
     */
    estado: "ok" | "stale" | "blocked" | "failed" | "disabled";
    /**
     * Por que a fonte não está ok, ou null.
     */
    motivo: string | null;
    /**
     * Última tentativa de ler a fonte que mudou algo (dado novo, falha, recuperação). Execuções sem nada novo não regravam o arquivo, para o histórico do git ficar limpo; o log do workflow tem todas.
     */
    ultima_tentativa: DataHoraOuNulo;
    /**
     * Última leitura bem-sucedida que trouxe dados novos (ou recuperou a fonte de uma falha).
     */
    ultimo_sucesso: DataHoraOuNulo;
    /**
     * Dia mais recente publicado pela fonte, ou null.
     */
    ultima_data: Data | null;
    /**
     * O maior falhas_consecutivas das páginas: tentativas falhas seguidas da própria fonte (0 quando a última leitura da própria fonte deu certo). Conta também as execuções em que um espelho serviu a página porque a da fonte falhou; nelas o estado continua ok.
     */
    falhas_consecutivas: number;
    /**
     * Primeira das falhas seguidas das páginas, ou null.
     */
    falhando_desde: DataHoraOuNulo;
    /**
     * Estado de cada página da fonte.
     */
    paginas: {
      /**
       * Identificador da página (ex.: "boi-gordo").
       */
      id: Texto;
      /**
       * Endereço da página.
       */
      url: string;
      /**
       * Estado da última tentativa.
       */
      estado: EstadoPagina;
      /**
       * Diagnóstico da falha, ou null. Com estado ok e estado_da_fonte, o diagnóstico da falha da página da própria fonte, que um espelho supriu.
       */
      motivo: string | null;
      /**
       * Só quando a última leitura veio de um espelho porque a página da própria fonte falhou: o tipo dessa falha (o estado da página é ok, porque o espelho serviu o dia; motivo, falhas_consecutivas e falhando_desde continuam contando a falha da página da fonte). Ausente quando a página da fonte respondeu.
       */
      estado_da_fonte?: "blocked" | "soft_block" | "timeout" | "http_error" | "network_error" | "missing";
      /**
       * Espelho usado na última leitura bem-sucedida, ou null quando foi a própria fonte.
       */
      via: string | null;
      /**
       * Como a última leitura bem-sucedida chegou: "http" (a página da própria fonte), "navegador" (a mesma página aberta no Chromium, depois de um desafio anti-robô), "espelho" (outro endereço que republica a tabela, nomeado em via: a Notícias Agrícolas ou o widget do CEPEA), "gravacao" (página gravada, modo replay; via nomeia o espelho quando a gravação é de um espelho); null quando a última tentativa falhou. Ausente em arquivos escritos antes deste campo.
       */
      caminho?: "http" | "navegador" | "espelho" | "gravacao" | null;
      /**
       * Endereço do espelho usado na última leitura bem-sucedida, ou null quando foi a própria fonte ou a última tentativa falhou. Ausente em arquivos escritos antes deste campo.
       */
      via_url?: string | null;
      /**
       * Só quando a página foi servida por um espelho que republica parte dela (a soja de Paranaguá sem a do Paraná, um só dos cafés, o último dia do boi gordo no widget do CEPEA): as séries da página que essa leitura não atualizou; mantêm seus dados e esperam a própria fonte.
       *
       * @minItems 1
       *
       * Items: Série ({produto} ou {produto}/{UF}).
       */
      series_nao_lidas?: string[];
      /**
       * Só quando a última leitura da página, mesclada, trouxe valores que `npm run desfazer` tirou do site como errados (desfeitos.json, na raiz do repositório dos dados): cada dia de série pulado por isso. Não é uma falha (o estado da página é ok e a execução não falha por isso): esse dia da série fica como está publicado (o valor restaurado, ou nenhum dia) até a fonte corrigi-lo, e o resto da página foi mesclado. Some quando a página deixa de trazer o valor.
       *
       * @minItems 1
       *
       * Items: Um dia de série pulado.
       */
      valores_desfeitos?: {
        /**
         * Série cujo dia foi pulado ({produto} ou {produto}/{UF}).
         */
        serie: string;
        /**
         * Dia pulado.
         */
        data: Data;
        /**
         * A entrada de desfeitos.json que a página trouxe de volta: da própria série, ou da série que segue a mesma praça de referência (a série nacional da Scot e a da UF dela, puladas juntas). Apagá-la de desfeitos.json, com commit, deixa o valor entrar na próxima atualização.
         */
        desfeito: {
          /**
           * Série da entrada.
           */
          serie: string;
          /**
           * Dia da entrada.
           */
          data: Data;
          /**
           * Campo: valor, valor_usd, ..., pracas.{praça}.
           */
          campo: string;
          /**
           * O valor exato que o desfazer tirou do site e a página ainda traz.
           */
          valor: number;
          /**
           * O commit cujos dados npm run desfazer desfez.
           */
          commit: string;
        };
        /**
         * O aviso, em português: série, dia, valor, o commit desfeito e como deixar o valor entrar.
         */
        aviso: string;
      }[];
      /**
       * Última tentativa de ler a página que mudou algo (dado novo, falha, recuperação); execuções sem nada novo não regravam o arquivo.
       */
      ultima_tentativa: DataHoraOuNulo;
      /**
       * Última leitura bem-sucedida da página que trouxe dados novos (ou a recuperou de uma falha).
       */
      ultimo_sucesso: DataHoraOuNulo;
      /**
       * Tentativas falhas seguidas da página da própria fonte, contando as execuções em que um espelho a supriu (estado_da_fonte); 0 quando a própria fonte respondeu.
       */
      falhas_consecutivas: number;
      /**
       * Primeira das falhas seguidas (também quando um espelho supriu a página), ou null.
       */
      falhando_desde: DataHoraOuNulo;
      /**
       * Só com estado revisao_suspeita: cada valor publicado que a página mudaria além do limite de revisão do produto, e o argumento que um operador passa a `npm run update -- --aceitar-revisao` para aceitá-lo.
       *
       * @minItems 1
       *
       * Items: Um valor que a página mudaria além do limite.
       */
      revisoes_suspeitas?: {
        /**
         * Série ({produto} ou {produto}/{UF}).
         */
        serie: string;
        /**
         * Dia já publicado.
         */
        data: Data;
        /**
         * Campo: valor, valor_usd, ..., pracas.{praça} ou pracas.{praça}.{coluna}.
         */
        campo: string;
        /**
         * Valor publicado (null: não existia).
         */
        antes: number | string | null;
        /**
         * Valor da página (null: a página o remove).
         */
        depois: number | string | null;
        /**
         * Argumento de --aceitar-revisao que aceita exatamente esta revisão.
         */
        aceitar: string;
      }[];
    }[];
  }[];
  /**
   * Último dia publicado de cada série.
   */
  series: {
    /**
     * Identificador da série ({produto} ou {produto}/{UF}).
     */
    id: string;
    /**
     * Dia mais recente da série, ou null.
     */
    ultima_data: Data | null;
    /**
     * ok: em dia; stale: sem dia novo há mais de max_idade_dias da fonte (contados como diz o contagem_idade dela); sem_dados: ainda sem nenhum dia.
     */
    estado: "ok" | "stale" | "sem_dados";
  }[];
}

/**
 * Valor de um campo: número, texto (a tendência da Scot) ou null (o campo não existia / deixou de existir).
 *
 * schemas/capturas.schema.json#/$defs/valorCampo
 */
export type ValorCampo = number | string | null;

/**
 * Uma página aceita que mudou dados publicados.
 *
 * schemas/capturas.schema.json#/$defs/captura
 */
export interface Captura {
  /**
   * Identificador da captura: fonte/página/, os 16 primeiros dígitos do SHA-256 e o momento do registro (AAAAMMDDTHHMMSS, Brasília).
   */
  id: string;
  /**
   * Fonte original dos números.
   */
  fonte: Fonte;
  /**
   * Página da fonte (ex.: "boi-gordo").
   */
  pagina: string;
  /**
   * Endereço da página na fonte original.
   */
  url: string;
  /**
   * Espelho pelo qual a página foi lida, ou null quando foi a própria fonte.
   */
  via: string | null;
  /**
   * Endereço da página no espelho, ou null.
   */
  via_url: string | null;
  /**
   * Quando a página foi buscada (ou gravada, no modo replay).
   */
  coletado_em: DataHora;
  /**
   * Quando a execução que aceitou a página a registrou.
   */
  registrado_em: DataHora;
  /**
   * SHA-256 (hexadecimal) dos bytes da página como foram lidos.
   */
  sha256: string;
  /**
   * Tamanho da página em bytes.
   */
  bytes: number;
  /**
   * Todos os dias que a página trouxe, em ordem.
   *
   * Items: Um dia trazido pela página.
   */
  dias: Data[];
  /**
   * Por série, os dias que esta captura acrescentou ao histórico.
   */
  novos: {
    /**
     * Dias acrescentados à série, em ordem.
     *
     * @minItems 1
     *
     * Items: Um dia acrescentado.
     */
    [k: string]: Data[];
  };
  /**
   * Cada valor já publicado que esta captura mudou; "aceita": true quando passou do limite de revisão do produto e foi aceito explicitamente por um operador.
   *
   * Items: Um valor publicado que a captura mudou.
   */
  revisoes: {
    /**
     * Série revisada ({produto} ou {produto}/{UF}).
     */
    serie: string;
    /**
     * Dia revisado.
     */
    data: Data;
    /**
     * valor, valor_usd, ..., pracas.{praça} ou pracas.{praça}.{coluna}.
     */
    campo: string;
    /**
     * Valor publicado antes.
     */
    antes: ValorCampo;
    /**
     * Valor publicado depois.
     */
    depois: ValorCampo;
    /**
     * true quando a revisão passou do limite e foi aceita explicitamente por um operador (ou veio de uma troca da praça de referência na configuração).
     */
    aceita: boolean;
  }[];
}

/**
 * Uma fonte dos números: nome e site.
 *
 * schemas/datapackage.schema.json#/$defs/fonte
 */
export interface DatapackageFonte {
  /**
   * Nome da fonte.
   */
  title: Texto;
  /**
   * Site da fonte.
   */
  path: string;
}

/**
 * Um CSV canônico e o seu Table Schema.
 *
 * schemas/datapackage.schema.json#/$defs/recurso
 */
export interface Recurso {
  /**
   * Nome do recurso (minúsculas, único no pacote).
   */
  name: string;
  /**
   * Caminho do CSV, relativo a api/v1/.
   */
  path: string;
  /**
   * Perfil Frictionless do recurso.
   */
  profile: "tabular-data-resource";
  /**
   * Título do recurso.
   */
  title: Texto;
  /**
   * O que o arquivo contém, com a unidade.
   */
  description: Texto;
  /**
   * Formato do arquivo.
   */
  format: "csv";
  /**
   * Tipo de mídia.
   */
  mediatype: "text/csv";
  /**
   * Codificação (sem BOM).
   */
  encoding: "utf-8";
  /**
   * Dialeto CSV: vírgula, LF, com cabeçalho.
   */
  dialect: {
    /**
     * Separador de campos.
     */
    delimiter: ",";
    /**
     * Fim de linha.
     */
    lineTerminator: "\n";
    /**
     * A primeira linha é o cabeçalho.
     */
    header: true;
  };
  /**
   * Table Schema do arquivo.
   */
  schema: {
    /**
     * As colunas, na ordem do cabeçalho.
     *
     * @minItems 1
     */
    fields: Campo[];
    /**
     * Colunas que identificam uma linha.
     *
     * @minItems 1
     */
    primaryKey: string[];
    /**
     * Célula vazia é valor ausente.
     */
    missingValues: string[];
  };
  /**
   * As fontes dos números do arquivo.
   *
   * @minItems 1
   */
  sources: DatapackageFonte[];
  /**
   * Os termos de cada fonte dos números do arquivo.
   *
   * @minItems 1
   */
  licenses: {
    /**
     * A fonte e o nome dos seus termos (o texto completo está em index.json e em LICENSE).
     */
    title: Texto;
    /**
     * Página com os termos de uso da fonte.
     */
    path: string;
  }[];
}

/**
 * Uma coluna do CSV (Table Schema field).
 *
 * schemas/datapackage.schema.json#/$defs/campo
 */
export interface Campo {
  /**
   * Nome da coluna, como no cabeçalho.
   */
  name: string;
  /**
   * Tipo Table Schema.
   */
  type: "date" | "number" | "string" | "boolean";
  /**
   * O que a coluna contém, com a unidade.
   */
  description: Texto;
  /**
   * Restrições da coluna.
   */
  constraints?: {
    /**
     * A coluna nunca é vazia.
     */
    required?: true;
    /**
     * Valores possíveis.
     *
     * @minItems 1
     */
    enum?: string[];
  };
}

/**
 * Identificador do evento: "evt_" e 20 dígitos hexadecimais do SHA-256 do tipo, do conteúdo e do id que encabeçava a lista antes da execução: a mesma execução sobre a mesma lista dá os mesmos ids, e um id nunca é dado a dois eventos, mesmo depois que o primeiro saiu da lista.
 *
 * schemas/eventos.schema.json#/$defs/id
 */
export type EventosId = string;

/**
 * Número de sequência do evento: o primeiro evento publicado é o 1 e cada evento novo recebe o número seguinte ao do mais novo da lista anterior; dentro de uma execução, o mais antigo (o último da lista) recebe o menor. Nunca volta atrás nem se repete, mesmo depois que o evento sai da lista. Quem consome a lista (por este JSON ou pelos webhooks; o feed Atom não traz o número: quem lê o feed e precisa saber se perdeu eventos lê este arquivo) guarda o maior `seq` já lido, N: se o menor `seq` listado for maior que N + 1, os eventos de N + 1 até esse menor menos 1 saíram da lista antes de serem lidos (e estão no histórico de api/v1/eventos.json no git). Arquivos publicados antes da existência do campo foram numerados uma única vez, do mais antigo (1) ao mais novo, na ordem em que estavam.
 *
 * schemas/eventos.schema.json#/$defs/seq
 */
export type EventosSeq = number;

/**
 * Um valor de uma série num dia.
 *
 * schemas/eventos.schema.json#/$defs/ponto
 */
export interface Ponto {
  data: Data;
  valor: Preco;
}

/**
 * Identificação da série a que o evento se refere.
 *
 * schemas/eventos.schema.json#/$defs/serie
 */
export interface EventosSerie {
  /**
   * Id da série: produto ou produto/UF (ex.: boi_gordo/MT).
   */
  serie: string;
  produto: Produto;
  nome: Texto;
  /**
   * UF da série, ou null para a referência nacional.
   */
  uf: Uf | null;
  unidade: Unidade;
  fonte: Fonte;
  /**
   * Caminho do arquivo da série no site (ex.: api/v1/cotacao/boi_gordo/MT.json).
   */
  path: string;
}

/**
 * Um evento: o mesmo objeto é o corpo POST dos webhooks.
 *
 * schemas/eventos.schema.json#/$defs/evento
 */
export type Evento =
  | {
      id: EventosId;
      seq: EventosSeq;
      /**
       * Tipo do evento.
       */
      tipo: "price_changed";
      /**
       * Quando a execução que gerou o evento rodou (horário de Brasília).
       */
      criado_em: DataHora;
      dados: PriceChanged;
    }
  | {
      id: EventosId;
      seq: EventosSeq;
      /**
       * Tipo do evento.
       */
      tipo: "historico_revisado";
      /**
       * Quando a execução que gerou o evento rodou (horário de Brasília).
       */
      criado_em: DataHora;
      dados: HistoricoRevisado;
    }
  | {
      id: EventosId;
      seq: EventosSeq;
      /**
       * Tipo do evento.
       */
      tipo: "cotacao_atualizada";
      /**
       * Quando a execução que gerou o evento rodou (horário de Brasília).
       */
      criado_em: DataHora;
      dados: CotacaoAtualizada;
    };

/**
 * O último valor de uma série mudou (dia novo com outro preço, ou revisão do último dia).
 *
 * schemas/eventos.schema.json#/$defs/priceChanged
 */
export type PriceChanged = EventosSerie & {
  /**
   * Último valor antes desta atualização.
   */
  anterior: Ponto;
  /**
   * Último valor depois desta atualização.
   */
  atual: Ponto;
  /**
   * Variação do anterior para o atual.
   */
  variacao: {
    /**
     * Diferença na unidade da série (atual menos anterior): R$, ou centavos de R$ no algodão (ct_lb).
     */
    absoluta: Dinheiro;
    /**
     * Diferença em percentual do anterior, duas casas decimais.
     */
    percentual: Percentual;
  };
  /**
   * Dias de calendário entre a data anterior e a atual (0: o último dia foi revisado).
   */
  dias: number;
  /**
   * Dias acrescentados à série nesta atualização.
   */
  dias_novos: Data[];
};

/**
 * A fonte revisou valores de dias passados de uma série.
 *
 * schemas/eventos.schema.json#/$defs/historicoRevisado
 */
export type HistoricoRevisado = EventosSerie & {
  /**
   * @minItems 1
   */
  revisoes: {
    data: Data;
    /**
     * Valor publicado antes, em R$.
     */
    anterior: Preco;
    /**
     * Valor revisado, em R$.
     */
    atual: Preco;
  }[];
};

/**
 * Uma execução trouxe dados novos (um por execução).
 *
 * schemas/eventos.schema.json#/$defs/cotacaoAtualizada
 */
export interface CotacaoAtualizada {
  /**
   * Séries alteradas, na ordem do catálogo.
   *
   * @minItems 1
   */
  series: {
    serie: string;
    path: string;
    unidade: Unidade;
    /**
     * Último dia da série.
     */
    data: Data;
    /**
     * Último valor da série, em R$.
     */
    valor: Preco;
    dias_novos: number;
    revisoes: number;
  }[];
  /**
   * Total de dias novos em todas as séries.
   */
  dias_novos: number;
  /**
   * Total de dias revisados em todas as séries.
   */
  revisoes: number;
}

/**
 * Caminho de um arquivo publicado, relativo ao diretório de index.json (api/v1/).
 *
 * schemas/index.schema.json#/$defs/caminho
 */
export type Caminho = string;

/**
 * Valor em R$ (duas casas), ou null quando não foi lido.
 *
 * schemas/romaneio.schema.json#/$defs/dinheiroOuNulo
 */
export type DinheiroOuNulo = Dinheiro | null;

/**
 * Quantidade (kg, arrobas, sacas, percentual) com até duas casas decimais, ou null quando não foi lida.
 *
 * schemas/romaneio.schema.json#/$defs/quantidadeOuNulo
 */
export type QuantidadeOuNulo = number | null;

/**
 * Comprador ou vendedor como aparece no documento.
 *
 * schemas/romaneio.schema.json#/$defs/parte
 */
export interface Parte {
  /**
   * Nome ou razão social, como lido.
   */
  nome: string | null;
  /**
   * CNPJ (00.000.000/0000-00) ou CPF (000.000.000-00) com dígitos verificadores válidos, ou inscrição estadual/produtor como lida; null quando ilegível.
   */
  documento: string | null;
}

/**
 * Um animal do romaneio de abate.
 *
 * schemas/romaneio.schema.json#/$defs/linhaAbate
 */
export interface LinhaAbate {
  /**
   * Número de ordem, brinco ou sequência do animal, como lido.
   */
  identificacao: string | null;
  /**
   * M (macho) ou F (fêmea), quando o documento diz.
   */
  sexo: "M" | "F" | null;
  peso_carcaca_kg: QuantidadeOuNulo;
  /**
   * Peso de cada meia-carcaça (banda A e banda B), quando o documento pesa por banda; null caso contrário.
   */
  bandas_kg: number[] | null;
  arrobas: QuantidadeOuNulo;
}

/**
 * Uma dedução do valor bruto (Funrural, Senar, taxa, frete...), com a alíquota quando impressa.
 *
 * schemas/romaneio.schema.json#/$defs/desconto
 */
export interface Desconto {
  /**
   * Nome da dedução como impresso (ex.: "Funrural", "Senar", "Taxa de abate").
   */
  nome: string;
  valor: DinheiroOuNulo;
  aliquota_pct: QuantidadeOuNulo;
}

/**
 * Totais de um romaneio de abate.
 *
 * schemas/romaneio.schema.json#/$defs/totaisAbate
 */
export interface TotaisAbate {
  cabecas: number | null;
  peso_carcaca_kg: QuantidadeOuNulo;
  arrobas: QuantidadeOuNulo;
  preco_arroba: DinheiroOuNulo;
  valor_bruto: DinheiroOuNulo;
  descontos: Desconto[];
  valor_liquido: DinheiroOuNulo;
}

/**
 * Totais de um romaneio de carga (grãos).
 *
 * schemas/romaneio.schema.json#/$defs/totaisCarga
 */
export interface TotaisCarga {
  peso_bruto_kg: QuantidadeOuNulo;
  tara_kg: QuantidadeOuNulo;
  umidade_pct: QuantidadeOuNulo;
  desconto_umidade_kg: QuantidadeOuNulo;
  impureza_pct: QuantidadeOuNulo;
  desconto_impureza_kg: QuantidadeOuNulo;
  /**
   * Peso líquido depois da tara e dos descontos de umidade e impureza.
   */
  peso_liquido_kg: QuantidadeOuNulo;
  /**
   * Sacas de 60 kg.
   */
  sacas: QuantidadeOuNulo;
  preco_saca: DinheiroOuNulo;
  valor_bruto: DinheiroOuNulo;
  descontos: Desconto[];
  valor_liquido: DinheiroOuNulo;
}

/**
 * Uma conferência que falhou, ou um campo que não foi lido.
 *
 * schemas/romaneio.schema.json#/$defs/avisoRomaneio
 */
export interface AvisoRomaneio {
  /**
   * Código estável: soma_linhas (as linhas não somam o total), arrobas_kg (arrobas ≠ kg ÷ 15 ao centésimo), bruto_preco (bruto ≠ quantidade × preço ao centavo), liquido_descontos (líquido ≠ bruto − descontos), desconto_aliquota (uma dedução ≠ a alíquota impressa × o bruto), cabecas_linhas (número de linhas ≠ cabeças), bandas (bandas não somam o peso do animal), peso_liquido (bruto − tara − descontos ≠ líquido), sacas_kg (sacas ≠ kg ÷ 60), campo_ausente, tipo_desconhecido, data_invalida, data_ambigua (duas datas com rótulo de mesmo peso, como "Data" e "Emissão", diferem: a data escolhida é duvidosa), documento_invalido (CPF ou CNPJ com dígitos verificadores errados).
   */
  codigo:
    | "soma_linhas"
    | "arrobas_kg"
    | "bruto_preco"
    | "liquido_descontos"
    | "desconto_aliquota"
    | "cabecas_linhas"
    | "bandas"
    | "peso_liquido"
    | "sacas_kg"
    | "campo_ausente"
    | "tipo_desconhecido"
    | "data_invalida"
    | "data_ambigua"
    | "documento_invalido";
  /**
   * O que não confere, em português, com os números envolvidos.
   */
  mensagem: string;
  /**
   * Caminhos dos campos envolvidos (ex.: "totais.arrobas", "linhas[3].peso_carcaca_kg").
   */
  campos: string[];
}

/**
 * Os campos lidos de um romaneio.
 *
 * schemas/romaneio.schema.json#/$defs/leituraRomaneio
 */
export interface LeituraRomaneio {
  /**
   * abate (romaneio de abate, gado) ou carga (romaneio de carga, grãos); null quando não foi reconhecido.
   */
  tipo: "abate" | "carga" | null;
  /**
   * Data da venda (abate ou carga), ou null.
   */
  data: Data | null;
  /**
   * Produto do catálogo (boi_gordo, vaca_gorda, soja, milho...) inferido do documento, ou null.
   */
  produto: Produto | null;
  /**
   * UF do local da venda (frigorífico ou armazém), ou null.
   */
  uf: Uf | null;
  /**
   * Município do local da venda, como lido.
   */
  municipio: string | null;
  comprador: Parte | null;
  vendedor: Parte | null;
  /**
   * Um item por animal (abate); vazio na carga.
   */
  linhas: LinhaAbate[];
  totais: TotaisAbate | TotaisCarga | null;
  /**
   * Confiança de 0 a 1 de cada campo lido, pelo caminho do campo ("data", "totais.valor_bruto", "linhas[0].arrobas"): a do OCR nas palavras do valor, reduzida quando uma conferência que o envolve falha.
   */
  confianca: {
    [k: string]: number;
  };
  avisos: AvisoRomaneio[];
}

/**
 * O preço de referência publicado para o dia do romaneio (ou o último dia anterior com preço), e a diferença para o preço do romaneio.
 *
 * schemas/romaneio.schema.json#/$defs/referenciaDoDia
 */
export interface ReferenciaDoDia {
  escopo: "estadual" | "nacional";
  /**
   * Id da série ("boi_gordo/SP", "soja").
   */
  serie: string;
  nome: string;
  fonte: Fonte;
  unidade: Unidade;
  /**
   * Dia do preço usado: o do romaneio, ou o último anterior com preço publicado.
   */
  data: Data;
  /**
   * Dias corridos entre o dia do preço usado e o dia do romaneio (0: o mesmo dia).
   */
  defasagem_dias: number;
  valor: Preco;
  /**
   * Preço do romaneio menos o de referência, em R$ por unidade; null sem preço no romaneio.
   */
  diferenca: DinheiroOuNulo;
  /**
   * A diferença em percentual do preço de referência (duas casas).
   */
  diferenca_pct: Percentual | null;
  /**
   * A diferença vezes a quantidade do romaneio (arrobas ou sacas), em R$.
   */
  diferenca_total: DinheiroOuNulo;
}

/**
 * Uma dedução como o romaneio a cobra e como o simulador a calcularia para as mesmas quantidades e preço.
 *
 * schemas/romaneio.schema.json#/$defs/deducaoLadoALado
 */
export interface DeducaoLadoALado {
  nome: string;
  romaneio: DinheiroOuNulo;
  simulador: DinheiroOuNulo;
}

/**
 * O romaneio diante dos preços publicados: a referência estadual e a nacional do dia, e a simulação do mesmo negócio.
 *
 * schemas/romaneio.schema.json#/$defs/comparacaoRomaneio
 */
export interface ComparacaoRomaneio {
  referencias: ReferenciaDoDia[];
  /**
   * O resultado de GET /api/v1/simulador para as mesmas quantidades e o preço do romaneio (o mesmo formato), ou null quando faltam campos.
   */
  simulacao: {} | null;
  deducoes: DeducaoLadoALado[];
  /**
   * Por que alguma referência ou a simulação falta.
   */
  avisos: string[];
}

/**
 * O que foi lido: o tipo do arquivo, páginas e de onde veio o texto.
 *
 * schemas/romaneio.schema.json#/$defs/arquivoLido
 */
export interface ArquivoLido {
  tipo: "image/png" | "image/jpeg" | "image/webp" | "application/pdf" | "text/plain";
  paginas: number;
  /**
   * ocr (imagem ou PDF escaneado), pdf_texto (camada de texto do PDF) ou texto (texto enviado).
   */
  origem: "ocr" | "pdf_texto" | "texto";
  /**
   * Tempo da leitura, em segundos.
   */
  segundos: number;
}

/**
 * Data e hora ISO 8601 com fuso, ou null quando ainda não aconteceu.
 *
 * schemas/status.schema.json#/$defs/dataHoraOuNulo
 */
export type DataHoraOuNulo = DataHora | null;

/**
 * Estado da última tentativa de ler a página: "ok" ou o tipo de falha (blocked: desafio anti-robô não superado; soft_block: resposta 200 sem a tabela; timeout; http_error; network_error; parse_error: tabela ilegível; rejected: valores reprovados nas verificações de plausibilidade; revisao_suspeita: a página mudaria um dia já publicado além do limite de revisão do produto e ficou retida até um operador aceitar a revisão; missing: página gravada ausente no modo replay).
 *
 * schemas/status.schema.json#/$defs/estadoPagina
 */
export type EstadoPagina =
  | "ok"
  | "blocked"
  | "soft_block"
  | "timeout"
  | "http_error"
  | "network_error"
  | "parse_error"
  | "rejected"
  | "revisao_suspeita"
  | "missing";
