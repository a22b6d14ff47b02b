"""Fixed-seed synthetic corpora for the benchmarks (not part of the spec)."""

from __future__ import annotations

import random

from reference.types import Candidate

VOCAB_SIZE = 20_000
SEED = 20240501


def vocabulary(seed: int = SEED) -> list[str]:
    """VOCAB_SIZE distinct pseudo-words of 3 to 10 lowercase ASCII letters."""
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < VOCAB_SIZE:
        word = "".join(rng.choice(letters) for _ in range(rng.randint(3, 10)))
        if word not in seen:
            seen.add(word)
            out.append(word)
    return out


def zipf_weights(n: int) -> list[float]:
    return [1.0 / (rank + 1) for rank in range(n)]


def documents(n_chunks: int, seed: int = SEED) -> list[tuple[str, list[Candidate]]]:
    """n_chunks one-chunk documents of 30–90 Zipf-distributed words: (path, [chunk])."""
    rng = random.Random(seed + n_chunks)
    vocab = vocabulary()
    weights = zipf_weights(len(vocab))
    docs: list[tuple[str, list[Candidate]]] = []
    for i in range(n_chunks):
        path = f"gen/{i // 1000:03d}/doc-{i:06d}.md"
        title = " ".join(rng.choices(vocab, weights, k=3))
        body = " ".join(rng.choices(vocab, weights, k=rng.randint(30, 90)))
        summary = body[:200]
        docs.append((path, [Candidate(f"{path}#0", path, title, summary, body)]))
    return docs


def queries(n: int, seed: int = SEED) -> list[str]:
    """n two-word queries drawn from the same Zipf distribution (mid-frequency words)."""
    rng = random.Random(seed * 7 + n)
    vocab = vocabulary()
    pool = vocab[20:2000]
    return [" ".join(rng.sample(pool, 2)) for _ in range(n)]
