import { br, type AbateDoc, type CargaDoc, type Doc } from "./calculo.ts";

/**
 * The HTML of each layout: an A4 page 794 CSS px wide (rendered at 1.5625 device pixels per CSS
 * pixel, 150 dpi, and printed to PDF as A4). Only system fonts (DejaVu), no external resource.
 */

const MESES = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"];

function dma(iso: string, ano2 = false): string {
  const [a, m, d] = iso.split("-");
  return `${d}/${m}/${ano2 ? a!.slice(2) : a}`;
}
function extenso(iso: string): string {
  const [a, m, d] = iso.split("-");
  return `${d} de ${MESES[Number(m) - 1]} de ${a}`;
}
function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
}

function pagina(titulo: string, css: string, corpo: string): string {
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>${esc(titulo)}</title><style>
@page { size: A4; margin: 0 }
* { box-sizing: border-box }
html, body { margin: 0; background: #fff; color: #111 }
body { width: 794px; padding: 40px 46px; font-family: "DejaVu Sans", sans-serif; font-size: 13px; line-height: 1.35 }
table { border-collapse: collapse; width: 100% }
td, th { padding: 3px 6px }
.r { text-align: right }
h1 { font-size: 18px; margin: 0 0 4px }
h2 { font-size: 14px; margin: 14px 0 6px }
${css}
</style></head><body>${corpo}</body></html>`;
}

function abateGrande(d: AbateDoc): string {
  const linhas = d.linhas
    .map((l) => `<tr><td>${l.seq}</td><td>${l.brinco}</td><td>${l.sexo}</td><td class="r">${br(l.kg)}</td><td class="r">${br(l.arrobas)}</td></tr>`)
    .join("");
  const desc = d.descontos.map((x) => `<tr><td>${esc(x.rotulo)}</td><td class="r">R$ ${br(x.valor)}</td></tr>`).join("");
  return pagina(
    "Romaneio de abate",
    `.cab { border-bottom: 2px solid #111; padding-bottom: 8px; margin-bottom: 10px }
     .animais th { border-bottom: 1px solid #111; text-align: left } .animais th.r { text-align: right }
     .tot { width: 60%; margin-left: 40%; margin-top: 12px } .tot td { border-top: 1px solid #bbb }`,
    `<div class="cab"><h1>${esc(d.comprador.nome)}</h1>
<div>CNPJ: ${d.comprador.documento}</div>
<div>Unidade: ${esc(d.municipio)} - ${d.uf}</div></div>
<h2>ROMANEIO DE ABATE</h2>
<div>Data do abate: ${dma(d.data)}</div>
<div>Fornecedor: ${esc(d.vendedor.nome)}</div>
<div>${d.vendedor.documento.length > 14 ? "CNPJ" : "CPF"}: ${d.vendedor.documento}</div>
<div>Procedência: ${esc(d.fazenda)}</div>
<h2>Animais abatidos</h2>
<table class="animais"><thead><tr><th>Seq</th><th>Brinco</th><th>Sexo</th><th class="r">Peso carcaça (kg)</th><th class="r">Arrobas (@)</th></tr></thead>
<tbody>${linhas}</tbody></table>
<table class="tot"><tbody>
<tr><td>Total de cabeças</td><td class="r">${d.linhas.length}</td></tr>
<tr><td>Peso total carcaça (kg)</td><td class="r">${br(d.kg)}</td></tr>
<tr><td>Total de arrobas</td><td class="r">${br(d.arrobas)}</td></tr>
<tr><td>Preço por arroba</td><td class="r">R$ ${br(d.preco)}</td></tr>
<tr><td>Valor bruto</td><td class="r">R$ ${br(d.bruto)}</td></tr>
${desc}
<tr><td><b>Valor líquido</b></td><td class="r"><b>R$ ${br(d.liquido)}</b></td></tr>
</tbody></table>`,
  );
}

function abateBandas(d: AbateDoc): string {
  const linhas = d.linhas
    .map((l) => `<tr><td>${l.seq}</td><td>${l.sexo === "F" ? "Fêmea" : "Macho"}</td><td class="r">${br(l.bandas![0], 1)}</td><td class="r">${br(l.bandas![1], 1)}</td><td class="r">${br(l.kg, 1)}</td><td class="r">${br(l.arrobas)}</td></tr>`)
    .join("");
  const desc = d.descontos.map((x) => `<tr><td>${esc(x.rotulo)}</td><td class="r">${br(x.valor)}</td></tr>`).join("");
  return pagina(
    "Romaneio de abate",
    `.grade td, .grade th { border: 1px solid #444 } .grade th { background: #eee }
     .duas { display: flex; gap: 24px } .duas > div { flex: 1 }
     .tot td { border-bottom: 1px dotted #999 }`,
    `<h1>${esc(d.comprador.nome)}</h1>
<div>CNPJ ${d.comprador.documento} · ${esc(d.municipio)}/${d.uf}</div>
<h2>ROMANEIO DE ABATE - PESAGEM POR BANDA</h2>
<div class="duas"><div>Produtor: ${esc(d.vendedor.nome)}<br>${d.vendedor.documento.length > 14 ? "CNPJ" : "CPF"} ${d.vendedor.documento}<br>${esc(d.fazenda)}</div>
<div>Data abate: ${dma(d.data, true)}<br>Categoria: ${d.sexo === "F" ? "Vacas" : "Bois"}</div></div>
<h2>Pesagem (kg)</h2>
<table class="grade"><thead><tr><th>Animal</th><th>Sexo</th><th>Banda A</th><th>Banda B</th><th>Carcaça</th><th>@</th></tr></thead>
<tbody>${linhas}</tbody></table>
<h2>Fechamento</h2>
<table class="tot"><tbody>
<tr><td>Cabeças</td><td class="r">${d.linhas.length}</td></tr>
<tr><td>Peso carcaça total kg</td><td class="r">${br(d.kg, 1)}</td></tr>
<tr><td>Arrobas</td><td class="r">${br(d.arrobas)}</td></tr>
<tr><td>Preço R$/@</td><td class="r">${br(d.preco)}</td></tr>
<tr><td>Valor bruto R$</td><td class="r">${br(d.bruto)}</td></tr>
${desc}
<tr><td><b>Valor líquido R$</b></td><td class="r"><b>${br(d.liquido)}</b></td></tr>
</tbody></table>`,
  );
}

function abateCompacto(d: AbateDoc): string {
  const linhas = d.linhas.map((l) => `<tr><td>${String(l.seq).padStart(2, "0")}</td><td>${l.sexo}</td><td class="r">${br(l.kg)}</td><td class="r">${br(l.arrobas)}</td></tr>`).join("");
  const desc = d.descontos.map((x) => `<div class="l"><span>${esc(x.rotulo)}</span><span>${br(x.valor)}</span></div>`).join("");
  return pagina(
    "Romaneio",
    `body { font-size: 14px } .mini { width: 55% } .mini th { text-align: left; border-bottom: 1px solid #000 }
     .l { display: flex; justify-content: space-between; width: 55%; padding: 2px 0 }`,
    `<h1>${esc(d.comprador.nome)} - CNPJ ${d.comprador.documento}</h1>
<div>${esc(d.municipio)} (${d.uf}), ${extenso(d.data)}</div>
<h2>Romaneio de abate</h2>
<div>Vendedor: ${esc(d.vendedor.nome)} - CPF/CNPJ ${d.vendedor.documento}</div>
<div>Origem: ${esc(d.fazenda)}</div>
<h2>Animais</h2>
<table class="mini"><thead><tr><th>Nº</th><th>Sexo</th><th class="r">Kg</th><th class="r">@</th></tr></thead><tbody>${linhas}</tbody></table>
<h2>Acerto</h2>
<div class="l"><span>Qtde. animais</span><span>${d.linhas.length}</span></div>
<div class="l"><span>Peso total carcaça</span><span>${br(d.kg)} kg</span></div>
<div class="l"><span>Total @</span><span>${br(d.arrobas)}</span></div>
<div class="l"><span>Valor da @</span><span>R$ ${br(d.preco)}</span></div>
<div class="l"><span>Vlr. Bruto</span><span>${br(d.bruto)}</span></div>
${desc}
<div class="l"><b>Líquido a receber</b><b>R$ ${br(d.liquido)}</b></div>`,
  );
}

const NOME_PRODUTO: Record<string, string> = { soja: "SOJA EM GRÃOS", milho: "MILHO EM GRÃOS" };

function cargaCooperativa(d: CargaDoc): string {
  const desc = d.descontos.map((x) => `<tr><td>${esc(x.rotulo)}</td><td class="r">R$ ${br(x.valor)}</td></tr>`).join("");
  return pagina(
    "Romaneio de carga",
    `.box { border: 1px solid #333; padding: 8px; margin-top: 10px } .q td { border-bottom: 1px solid #ccc }`,
    `<h1>${esc(d.comprador.nome)}</h1>
<div>CNPJ ${d.comprador.documento} - Unidade ${esc(d.municipio)}/${d.uf}</div>
<h2>ROMANEIO DE ENTRADA DE GRÃOS</h2>
<div class="box">
<div>Data: ${dma(d.data)}</div>
<div>Produtor: ${esc(d.vendedor.nome)}</div>
<div>${d.vendedor.documento.length > 14 ? "CNPJ" : "CPF"}: ${d.vendedor.documento}</div>
<div>Produto: ${NOME_PRODUTO[d.produto]}</div>
<div>Placa: ${d.placa}</div>
</div>
<h2>Pesagem e classificação</h2>
<table class="q"><tbody>
<tr><td>Peso bruto (kg)</td><td class="r">${br(d.bruto_kg, 0)}</td></tr>
<tr><td>Tara (kg)</td><td class="r">${br(d.tara_kg, 0)}</td></tr>
<tr><td>Umidade ${br(d.umidade)}% - desconto (kg)</td><td class="r">${br(d.desc_umidade_kg, 0)}</td></tr>
<tr><td>Impureza ${br(d.impureza)}% - desconto (kg)</td><td class="r">${br(d.desc_impureza_kg, 0)}</td></tr>
<tr><td>Peso líquido (kg)</td><td class="r">${br(d.liquido_kg, 0)}</td></tr>
<tr><td>Sacas (60 kg)</td><td class="r">${br(d.sacas)}</td></tr>
<tr><td>Preço por saca</td><td class="r">R$ ${br(d.preco)}</td></tr>
<tr><td>Valor bruto</td><td class="r">R$ ${br(d.bruto)}</td></tr>
${desc}
<tr><td><b>Valor líquido</b></td><td class="r"><b>R$ ${br(d.liquido)}</b></td></tr>
</tbody></table>`,
  );
}

function cargaTicket(d: CargaDoc): string {
  const desc = d.descontos.map((x) => `<div>${esc(x.rotulo)}: R$ ${br(x.valor)}</div>`).join("");
  return pagina(
    "Ticket de pesagem",
    `body { font-family: "DejaVu Sans Mono", monospace; font-size: 14px } .sep { border-top: 1px dashed #000; margin: 8px 0 }`,
    `<div><b>${esc(d.comprador.nome)}</b></div>
<div>CNPJ ${d.comprador.documento}</div>
<div>${esc(d.municipio)} - ${d.uf}</div>
<div class="sep"></div>
<div><b>ROMANEIO DE CARGA / TICKET DE PESAGEM</b></div>
<div>Emissão: ${dma(d.data)} 14:32</div>
<div>Depositante: ${esc(d.vendedor.nome)}</div>
<div>CPF/CNPJ: ${d.vendedor.documento}</div>
<div>Produto: ${d.produto === "soja" ? "Soja" : "Milho"} - Placa ${d.placa}</div>
<div class="sep"></div>
<div>Peso bruto: ${br(d.bruto_kg, 0)} kg</div>
<div>Tara: ${br(d.tara_kg, 0)} kg</div>
<div>Peso sem classificação: ${br(d.bruto_kg - d.tara_kg, 0)} kg</div>
<div>Umidade: ${br(d.umidade)}% Desc.: ${br(d.desc_umidade_kg, 0)} kg</div>
<div>Impureza: ${br(d.impureza)}% Desc.: ${br(d.desc_impureza_kg, 0)} kg</div>
<div>Peso líquido: ${br(d.liquido_kg, 0)} kg</div>
<div>Sacas 60 kg: ${br(d.sacas)}</div>
<div class="sep"></div>
<div>Preço/saca: R$ ${br(d.preco)}</div>
<div>Valor bruto: R$ ${br(d.bruto)}</div>
${desc}
<div><b>Valor líquido: R$ ${br(d.liquido)}</b></div>`,
  );
}

export function html(d: Doc): string {
  switch (d.modelo) {
    case "abate-grande": return abateGrande(d as AbateDoc);
    case "abate-bandas": return abateBandas(d as AbateDoc);
    case "abate-compacto": return abateCompacto(d as AbateDoc);
    case "carga-cooperativa": return cargaCooperativa(d as CargaDoc);
    case "carga-ticket": return cargaTicket(d as CargaDoc);
  }
  throw new Error(`modelo desconhecido: ${d.modelo}`);
}
