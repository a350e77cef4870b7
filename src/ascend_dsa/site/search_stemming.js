// Appended to Material's search worker by hooks/search_index.py; one index per worker, one edition's.
// 1. Material adds a trailing wildcard to every query word, and lunr runs no pipeline on a wildcard term, so
//    "pipelining*" never met the stemmed English index. Here a parsed wildcard word is stemmed first
//    ("pipelining*" -> "pipelin*"), when the index's search pipeline has lunr's English stemmer (the Chinese
//    index has none). Material's own term matching and highlighting parse the query the same way, so they agree.
// 2. A page that holds more of the query's words comes before one that holds fewer, whatever their scores: each
//    result's score is multiplied by 10 for every query word its page holds, which outweighs Material's own
//    reweighting (at most 5x); among pages holding as many, lunr's score decides, titles weighing 1000x text.
;(() => {
  const lunr = self.lunr;
  let stemming = null;
  const build = lunr.Builder.prototype.build;
  lunr.Builder.prototype.build = function () {
    const index = build.call(this);
    stemming = this.searchPipeline._stack.includes(lunr.stemmer) ? this.searchPipeline : null;
    return index;
  };
  const parse = lunr.QueryParser.prototype.parse;
  lunr.QueryParser.prototype.parse = function () {
    const query = parse.call(this);
    for (const clause of stemming ? query.clauses : []) {
      const word = /^([^*]+)\*$/.exec(clause.term);
      if (clause.usePipeline || !word) continue;
      const stems = stemming.runString(word[1], { fields: clause.fields });
      if (stems.length === 1) clause.term = `${stems[0]}*`;
    }
    return query;
  };
  const search = lunr.Index.prototype.query;
  lunr.Index.prototype.query = function (fn) {
    let words = [];
    const results = search.call(this, function (query) {
      fn.call(this, query, query);
      words = query.clauses
        .filter((clause) => clause.presence !== lunr.Query.presence.PROHIBITED)
        .map((clause) => clause.term.toLowerCase());
    });
    const matches = (word, term) => (word.endsWith("*") ? term.startsWith(word.slice(0, -1)) : term === word);
    const held = new Map();
    for (const result of results) {
      const page = result.ref.split("#")[0];
      const found = held.get(page) || new Set();
      const terms = Object.keys(result.matchData.metadata);
      words.forEach((word, index) => terms.some((term) => matches(word, term)) && found.add(index));
      held.set(page, found);
    }
    for (const result of results) result.score *= 10 ** held.get(result.ref.split("#")[0]).size;
    return results.sort((a, b) => b.score - a.score);
  };
})();
