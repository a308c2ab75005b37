import { createHash } from 'node:crypto';

/**
 * The Merkle Tree Hash of RFC 6962 section 2.1 (RFC 9162 section 2.1.1): leaves hashed with a
 * 0x00 prefix, interior nodes with 0x01, each tree split at the largest power of two below its
 * size. Small enough to own; the Certificate Transparency reference vectors pin it.
 */
const sha256 = (...parts: Uint8Array[]): Buffer => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

const LEAF = Uint8Array.of(0x00);
const NODE = Uint8Array.of(0x01);

export function merkleLeafHash(data: Uint8Array): Buffer {
  return sha256(LEAF, data);
}

function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return sha256(NODE, left, right);
}

/** The largest power of two smaller than `n` (n > 1). */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH of the given leaf hashes; SHA-256 of nothing for the empty tree. */
export function merkleRoot(leafHashes: readonly Uint8Array[]): Buffer {
  if (leafHashes.length === 0) return sha256();
  if (leafHashes.length === 1) return Buffer.from(leafHashes[0]);
  const k = split(leafHashes.length);
  return nodeHash(merkleRoot(leafHashes.slice(0, k)), merkleRoot(leafHashes.slice(k)));
}

/**
 * The tree of an append-only log kept as the roots of its perfect subtrees, largest first (the
 * binary digits of its size): appending a leaf and computing the MTH are O(log n), so a log
 * checkpointed again reads only what was appended since.
 */
export class MerkleFrontier {
  private readonly subtrees: Array<{ size: number; hash: Buffer }> = [];
  private leaves = 0;

  get size(): number {
    return this.leaves;
  }

  append(leafHash: Uint8Array): void {
    let node: { size: number; hash: Buffer } = { size: 1, hash: Buffer.from(leafHash) };
    for (let last = this.subtrees.at(-1); last?.size === node.size; last = this.subtrees.at(-1)) {
      this.subtrees.pop();
      node = { size: last.size * 2, hash: nodeHash(last.hash, node.hash) };
    }
    this.subtrees.push(node);
    this.leaves += 1;
  }

  /** MTH of the leaves so far: each split of RFC 6962 puts the largest perfect subtree left. */
  root(): Buffer {
    if (this.subtrees.length === 0) return sha256();
    let hash = this.subtrees[this.subtrees.length - 1].hash;
    for (let i = this.subtrees.length - 2; i >= 0; i--) hash = nodeHash(this.subtrees[i].hash, hash);
    return hash;
  }
}

/** PATH(m, D[n]): the audit path proving leaf `index` is in the tree of `leafHashes`. */
export function inclusionPath(leafHashes: readonly Uint8Array[], index: number): Buffer[] {
  if (index < 0 || index >= leafHashes.length) throw new RangeError('leaf index outside the tree');
  if (leafHashes.length === 1) return [];
  const k = split(leafHashes.length);
  return index < k
    ? [...inclusionPath(leafHashes.slice(0, k), index), merkleRoot(leafHashes.slice(k))]
    : [...inclusionPath(leafHashes.slice(k), index - k), merkleRoot(leafHashes.slice(0, k))];
}

/** RFC 9162 section 2.1.3.2: does `path` lead from leaf `index` of a `size`-leaf tree to `root`? */
export function verifyInclusion(
  leafHash: Uint8Array,
  index: number,
  size: number,
  path: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r: Buffer = Buffer.from(leafHash);
  for (const p of path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && r.equals(Buffer.from(root));
}

/**
 * PROOF(m, D[n]) of RFC 6962 section 2.1.2: the hashes that show the tree of the first `m`
 * leaves is a prefix of the tree of all of them (the log only grew).
 */
export function consistencyProof(leafHashes: readonly Uint8Array[], m: number): Buffer[] {
  if (m < 1 || m > leafHashes.length) throw new RangeError('the first tree must be 1 to n leaves');
  return subproof(m, leafHashes, true);
}

function subproof(m: number, leafHashes: readonly Uint8Array[], complete: boolean): Buffer[] {
  const n = leafHashes.length;
  if (m === n) return complete ? [] : [merkleRoot(leafHashes)];
  const k = split(n);
  return m <= k
    ? [...subproof(m, leafHashes.slice(0, k), complete), merkleRoot(leafHashes.slice(k))]
    : [...subproof(m - k, leafHashes.slice(k), false), merkleRoot(leafHashes.slice(0, k))];
}

/** RFC 9162 section 2.1.4.2: does `proof` show the `first`-leaf tree is a prefix of the `second`? */
export function verifyConsistency(
  first: number,
  second: number,
  proof: readonly Uint8Array[],
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
): boolean {
  if (first < 1 || first > second) return false;
  if (first === second) return proof.length === 0 && Buffer.from(firstRoot).equals(Buffer.from(secondRoot));
  const path = (first & (first - 1)) === 0 ? [firstRoot, ...proof] : [...proof];
  if (path.length === 0) return false;
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr: Buffer = Buffer.from(path[0]);
  let sr: Buffer = Buffer.from(path[0]);
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr.equals(Buffer.from(firstRoot)) && sr.equals(Buffer.from(secondRoot));
}
