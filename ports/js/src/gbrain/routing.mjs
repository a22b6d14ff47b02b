// Profile gbrain: intent routing (spec/profiles/gbrain.md GBRAIN-19, GBRAIN-20).
import { loadSpecData } from '../data.mjs';
import { words } from '../text.mjs';

let table = null;

export function intentTable() {
  if (table !== null) return table;
  const doc = loadSpecData('profiles/gbrain/intent.json');
  if (!Array.isArray(doc.classes) || doc.classes.length === 0 || typeof doc.entityGraphFactor !== 'number') {
    throw new Error('hrc-js: profiles/gbrain/intent.json is malformed');
  }
  const positive = (x) => typeof x === 'number' && x > 0;
  const rrf = doc.rrf;
  const names = [...doc.classes.map((c) => c.intent), doc.default];
  if (!isObjectLike(rrf) || !positive(rrf.k) || !isObjectLike(rrf.weights)
      || !names.every((n) => isObjectLike(rrf.weights[n]) && positive(rrf.weights[n].vector) && positive(rrf.weights[n].keyword))) {
    throw new Error('hrc-js: profiles/gbrain/intent.json rrf is malformed');
  }
  table = {
    classes: doc.classes.map((c) => [c.intent, c.triggers.map((t) => t.split(' '))]),
    fallback: doc.default,
    entityGraphFactor: doc.entityGraphFactor,
    rrfK: rrf.k,
    legWeights: rrf.weights,
  };
  return table;
}

const isObjectLike = (x) => typeof x === 'object' && x !== null && !Array.isArray(x);

// GBRAIN-31: a class's [vector, keyword] k, gbrain's k over the leg's weight (effectiveRrfK).
export function legKs(intent) {
  const t = intentTable();
  const w = t.legWeights[intent];
  return [t.rrfK / w.vector, t.rrfK / w.keyword];
}

function contains(query, trigger) {
  for (let i = 0; i + trigger.length <= query.length; i++) {
    if (trigger.every((w, k) => query[i + k] === w)) return true;
  }
  return false;
}

// GBRAIN-19
export function classify(query) {
  const t = intentTable();
  const q = words(query);
  for (const [intent, triggers] of t.classes) {
    if (triggers.some((trigger) => contains(q, trigger))) return intent;
  }
  return t.fallback;
}
