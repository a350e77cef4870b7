// Appended to Material's search worker by ascend_dsa.site.search_index; one index per worker, one edition's.
// 1. Material adds a trailing wildcard to every query word, and lunr runs no pipeline on a wildcard term, so
//    "pipelining*" never met the stemmed English index. Here a parsed wildcard word is stemmed first
//    ("pipelining*" -> "pipelin*"), when the index's search pipeline has lunr's English stemmer (the Chinese
//    index has none). Material's own term matching and highlighting parse the query the same way, so they agree.
// 2. A page that holds more of the query's words, rarer ones and in its headings, comes before one that holds fewer:
//    a page's coverage sums, over the query words it holds, the word's rarity among pages, ln(1 + pages / pages
//    holding it), tripled where the word is in a heading, a heading's synonyms or the page's outline (the index
//    configuration's headed_fields; doubled, a catch-all page holding the question's filler words in its text
//    outweighed the one headed by its topic); each result's score is multiplied by
//    100 ** coverage, which outweighs Material's own reweighting (at most 5x) unless the coverages are nearly equal;
//    among pages covering as much, lunr's score decides, titles weighing 1000x text.
// 3. The words of a question that name no topic ("why", "怎么办": the index configuration's question_words) are
//    dropped from a query that has other words, before stemming, so "why*" no longer finds "which" and "while".
//    Chinese ones of two characters or more leave the query's Chinese text before Material segments it
//    (self.ascendQuery, called by the patched worker): segmented first, 有多高 became 有 / 多 / 高 and 多 found the
//    pages where jieba had left it alone, as rare as a topic.
// 4. Material's Chinese segmenter ends each segment with a wildcard and then adds another ("累加器**"), so its
//    query terms never matched the index's words and nothing was highlighted: trailing wildcards become one.
// 5. Material repeats a hyphenated word once per piece ("compute-to-memory" three times, with only its last piece
//    wildcarded), so a query's clauses are made unique, and a word lunr stems itself (no wildcard) is stemmed here
//    too before it is compared with the index's terms for coverage.
// 6. A Chinese word the index holds matches only itself, not every word it begins:
//    "双*" found 双缓冲 and 双份 for "双 bank", "核*" found 核对 (checking). A word the index does not hold (one still
//    being typed) keeps its wildcard, unless it is one character: 双 alone is no word of the pages.
// 7. A result's page link carries the query words its page matched (?h=...), so the page opens with them
//    highlighted: Material gives a page it lists only for its sections an empty ?h=.
// 8. A query holding a phrase of the index configuration ("online softmax", "memory bottleneck": the glossary's and
//    the synonym groups' terms of several words) also asks for it as one word (online_softmax), which the index holds
//    where a page holds the phrase or one of its synonyms: a page about online softmax then outweighs one that
//    only says "softmax" in a heading.
;(() => {
  const lunr = self.lunr;
  let stemming = null;
  let questionWords = new Set();
  let pageCount = 1;
  let vocabulary = {};
  let headed = new Set(["title"]);
  const HEADED_WEIGHT = 3;
  const COVERAGE_BASE = 100;
  let questionPhrases = null;
  let phrases = [];
  addEventListener("message", (event) => {
    const config = event.data && event.data.type === 0 && event.data.data && event.data.data.config;
    if (!config) return;
    questionWords = new Set(config.question_words || []);
    headed = new Set(config.headed_fields || ["title"]);
    const questions = [...questionWords].filter((word) => /^\p{Script=Han}{2,}$/u.test(word));
    questions.sort((a, b) => b.length - a.length);
    questionPhrases = questions.length ? new RegExp(questions.join("|"), "gu") : null;
    phrases = (config.phrases || []).map((phrase) => {
      const words = phrase.split(/[\s-]+/);
      const pattern = words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[\\s-]+");
      return { pattern: new RegExp(`(?<![\\w-])${pattern}(?![\\w-])`, "iu"), token: words.join("_") };
    });
  });
  self.ascendQuery = (query) => {
    const topical = questionPhrases
      ? query.replace(/\p{Script=Han}+/gu, (run) => run.replace(questionPhrases, " "))
      : query;
    const kept = topical.trim() ? topical : query;
    const tokens = phrases.filter((phrase) => phrase.pattern.test(kept)).map((phrase) => phrase.token);
    return [kept, ...tokens].join(" ");
  };
  const build = lunr.Builder.prototype.build;
  lunr.Builder.prototype.build = function () {
    const index = build.call(this);
    vocabulary = index.invertedIndex;
    stemming = this.searchPipeline._stack.includes(lunr.stemmer) ? this.searchPipeline : null;
    pageCount = new Set(Object.keys(this.fieldLengths).map((key) => key.slice(key.indexOf("/") + 1).split("#")[0])).size;
    return index;
  };
  const parse = lunr.QueryParser.prototype.parse;
  lunr.QueryParser.prototype.parse = function () {
    const query = parse.call(this);
    const seen = new Set();
    query.clauses = query.clauses.filter((clause) => {
      clause.term = clause.term.replace(/\*+$/, "*");
      const key = `${clause.term} ${clause.presence} ${clause.usePipeline}`;
      return !seen.has(key) && seen.add(key);
    });
    for (const clause of query.clauses) {
      const word = /^(\p{Script=Han}+)\*$/u.exec(clause.term);
      if (word && (word[1].length === 1 || Object.hasOwn(vocabulary, word[1]))) clause.term = word[1];
    }
    const topical = query.clauses.filter((clause) => !questionWords.has(clause.term.replace(/\*$/, "")));
    if (topical.length) query.clauses = topical;
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
    const pipeline = this.pipeline;
    const results = search.call(this, function (query) {
      fn.call(this, query, query);
      const terms = query.clauses
        .filter((clause) => clause.presence !== lunr.Query.presence.PROHIBITED)
        .flatMap((clause) => (clause.usePipeline ? pipeline.runString(clause.term, { fields: clause.fields }) : [clause.term]))
        .map((term) => term.toLowerCase());
      words = [...new Set(terms)];
    });
    const matches = (word, term) => (word.endsWith("*") ? term.startsWith(word.slice(0, -1)) : term === word);
    const held = new Map();
    for (const result of results) {
      const page = result.ref.split("#")[0];
      const found = held.get(page) || new Map();
      for (const [term, fields] of Object.entries(result.matchData.metadata)) {
        const weight = Object.keys(fields).some((field) => headed.has(field)) ? HEADED_WEIGHT : 1;
        words.forEach((word, index) => matches(word, term) && found.set(index, Math.max(found.get(index) || 0, weight)));
      }
      held.set(page, found);
    }
    const pagesHolding = words.map((_, index) => [...held.values()].filter((found) => found.has(index)).length);
    const coverage = new Map();
    for (const [page, found] of held) {
      let sum = 0;
      for (const [index, weight] of found) sum += weight * Math.log(1 + pageCount / pagesHolding[index]);
      coverage.set(page, sum);
    }
    for (const result of results) result.score *= COVERAGE_BASE ** coverage.get(result.ref.split("#")[0]);
    return results.sort((a, b) => b.score - a.score);
  };
  const post = self.postMessage.bind(self);
  self.postMessage = (message, ...rest) => {
    for (const group of (message && message.type === 3 && message.data.items) || []) {
      const matched = group.flatMap((item) => Object.keys(item.terms || {}).filter((term) => item.terms[term]));
      for (const item of group) {
        if (!item.location.includes("#") && !Object.values(item.terms || {}).some(Boolean))
          item.terms = Object.fromEntries(matched.map((term) => [term, true]));
      }
    }
    post(message, ...rest);
  };
})();
