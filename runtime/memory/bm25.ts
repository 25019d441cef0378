/**
 * BM25 ranking exactly as SPEC §5 (and the reference local store): tokens are `[A-Za-z0-9]+` lowercased,
 * k1 = 1.5, b = 0.75, idf = ln(1 + (N - n + 0.5) / (n + 0.5)). Pure functions, no I/O.
 */

export const BM25_K1 = 1.5;
export const BM25_B = 0.75;

/** Lowercased `[A-Za-z0-9]+` tokens of a text. */
export function tokenize(text: string): string[] {
  return (text.match(/[A-Za-z0-9]+/g) ?? []).map((token) => token.toLowerCase());
}

/** One ranked document: its position in the input and its score. */
export interface Bm25Score {
  index: number;
  score: number;
}

/**
 * Scores every document against the query (repeated query terms count again, as in the reference) and
 * returns them best first; ties keep input order. Documents that share no term with the query score 0.
 */
export function bm25Scores(documents: readonly string[], query: string): Bm25Score[] {
  const queryTerms = tokenize(query);
  const tokenized = documents.map(tokenize);
  const count = tokenized.length;
  if (count === 0 || queryTerms.length === 0) return documents.map((_, index) => ({ index, score: 0 }));
  const averageLength = tokenized.reduce((sum, tokens) => sum + tokens.length, 0) / count;
  const documentFrequency = new Map<string, number>();
  for (const tokens of tokenized) {
    for (const term of new Set(tokens)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const scores = tokenized.map((tokens, index) => {
    let score = 0;
    if (tokens.length > 0) {
      const lengthRatio = averageLength > 0 ? tokens.length / averageLength : 1;
      for (const term of queryTerms) {
        const frequency = tokens.filter((token) => token === term).length;
        if (frequency === 0) continue;
        const containing = documentFrequency.get(term) ?? 0;
        const idf = Math.log(1 + (count - containing + 0.5) / (containing + 0.5));
        score += (idf * (frequency * (BM25_K1 + 1))) / (frequency + BM25_K1 * (1 - BM25_B + BM25_B * lengthRatio));
      }
    }
    return { index, score };
  });
  return scores.sort((left, right) => right.score - left.score || left.index - right.index);
}
