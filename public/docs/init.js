// Gerado por pipeline/openapi/docs.ts; não edite.
// Redoc não tem opção de idioma: os rótulos configuráveis vão em "labels"; os outros textos fixos
// são traduzidos depois de desenhados (só o texto dos nós, para o React continuar dono deles).
"use strict";
(function () {
  var TRADUCOES = {"Authorizations:":"Autorizações:","Response Schema:":"Schema da resposta:","Request Body schema:":"Schema do corpo da requisição:","query Parameters":"Parâmetros de consulta","path Parameters":"Parâmetros de caminho","header Parameters":"Parâmetros de cabeçalho","cookie Parameters":"Parâmetros de cookie","Response Headers":"Cabeçalhos da resposta","Content type":"Tipo de conteúdo","Expand all":"Expandir tudo","Collapse all":"Recolher tudo","Copy":"Copiar","Copied":"Copiado","No sample":"Sem exemplo","required":"obrigatório","One of":"Um de","Any of":"Qualquer de","API docs by Redocly":"Documentação gerada pelo Redoc"};
  var PLACEHOLDERS = {"Search...":"Buscar…"};
  var raiz = document.getElementById("redoc");

  function traduzirElemento(el) {
    var nos = el.childNodes;
    if (nos.length === 0) return;
    var texto = "";
    var soTexto = true;
    for (var i = 0; i < nos.length; i++) {
      if (nos[i].nodeType !== 3) {
        soTexto = false;
        continue;
      }
      texto += nos[i].data;
      // "Response Schema: " beside the content-type dropdown: one text node among elements
      var u = TRADUCOES[nos[i].data.trim()];
      if (u !== undefined) nos[i].data = nos[i].data.replace(nos[i].data.trim(), u);
    }
    if (!soTexto) return;
    var t = TRADUCOES[texto.trim()];
    if (t === undefined) return;
    // "query" + " Parameters" are two text nodes: the first takes the whole translation
    nos[0].data = texto.replace(texto.trim(), t);
    for (var j = 1; j < nos.length; j++) nos[j].data = "";
  }

  function traduzir(no) {
    if (no.nodeType === 3) no = no.parentElement;
    if (!no || no.nodeType !== 1) return;
    traduzirElemento(no);
    var todos = no.getElementsByTagName("*");
    for (var i = 0; i < todos.length; i++) traduzirElemento(todos[i]);
    var campos = no.querySelectorAll("[placeholder]");
    for (var k = 0; k < campos.length; k++) {
      var p = PLACEHOLDERS[campos[k].getAttribute("placeholder")];
      if (p !== undefined) campos[k].setAttribute("placeholder", p);
    }
  }

  new MutationObserver(function (mudancas) {
    for (var i = 0; i < mudancas.length; i++) {
      var m = mudancas[i];
      if (m.type === "characterData") traduzir(m.target);
      else for (var j = 0; j < m.addedNodes.length; j++) traduzir(m.addedNodes[j]);
    }
  }).observe(raiz, { childList: true, subtree: true, characterData: true });

  Redoc.init("../api/v1/openapi.json", {"expandResponses":"200","jsonSampleExpandLevel":2,"hideDownloadButton":false,"labels":{"enum":"Valores","enumSingleValue":"Valor","enumArray":"Itens","default":"Padrão","deprecated":"Obsoleto","example":"Exemplo","examples":"Exemplos","recursive":"Recursivo","arrayOf":"Lista de ","webhook":"Evento","const":"Valor","noResultsFound":"Nada encontrado","download":"Baixar","downloadSpecification":"Baixar a descrição OpenAPI","responses":"Respostas","callbackResponses":"Respostas de callback","requestSamples":"Exemplos de requisição","responseSamples":"Exemplos de resposta"}}, raiz);
})();
