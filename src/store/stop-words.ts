/**
 * Words a question is made of that say nothing about what it asks: English function words and
 * the question and conversation words people use with an agent ("how did we", "can you", "last
 * time"). A query ignores them unless it is made of nothing else.
 */
const WORDS = `
a about above after again against all also am an and any are aren as at be because been before being below between
both but by can cannot could couldn did didn do does doesn doing don during each either else ever every few for
from further get gets got had hadn has hasn have haven having he her here hers herself him himself his how however i
if in into is isn it its itself just let me might more most much must mustn my myself need no nor not now of
often on once only onto or other ought our ours ourselves own per please quite rather really same shall
shan she should shouldn since so some such than that the their theirs them themselves then there these they this
those though through thus to too until upon us very via was wasn we were weren what whatever when whenever
where wherever whether which while who whoever whom whose why will with within without won would wouldn yes yet you
your yours yourself yourselves
ago again already anyone anything earlier everything last lately maybe recall recently remember someone something
thing things time tell told way ask asked
`;

const STOP_WORDS: ReadonlySet<string> = new Set(WORDS.split(/\s+/).filter(Boolean));

export const isStopWord = (folded: string): boolean => STOP_WORDS.has(folded);
