import {
  consistencyProof,
  inclusionPath,
  MerkleFrontier,
  merkleLeafHash,
  merkleRoot,
  verifyConsistency,
  verifyInclusion,
} from './merkle';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const unhex = (text: string) => Buffer.from(text, 'hex');

/** The Certificate Transparency reference leaves and tree heads (RFC 6962), sizes 0 to 8. */
const LEAVES = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
]
  .map(unhex)
  .map(merkleLeafHash);
const ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

describe('the RFC 6962 Merkle tree', () => {
  it('gives the reference tree head for every size from 0 to 8', () => {
    for (let size = 0; size <= 8; size++) expect(hex(merkleRoot(LEAVES.slice(0, size)))).toBe(ROOTS[size]);
  });

  it('gives the reference audit paths', () => {
    expect(inclusionPath(LEAVES, 0).map(hex)).toEqual([
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ]);
    expect(inclusionPath(LEAVES, 5).map(hex)).toEqual([
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ]);
  });

  it('verifies every leaf of every tree size up to 37, and refuses a wrong leaf, index or root', () => {
    const leaves = Array.from({ length: 37 }, (_, i) => merkleLeafHash(Uint8Array.of(i, i * 7)));
    const stranger = merkleLeafHash(Uint8Array.of(255, 255, 255));
    for (let size = 1; size <= leaves.length; size++) {
      const tree = leaves.slice(0, size);
      const root = merkleRoot(tree);
      for (let index = 0; index < size; index++) {
        const path = inclusionPath(tree, index);
        expect(verifyInclusion(tree[index], index, size, path, root)).toBe(true);
        expect(verifyInclusion(stranger, index, size, path, root)).toBe(false);
        if (size > 1) expect(verifyInclusion(tree[index], (index + 1) % size, size, path, root)).toBe(false);
        expect(verifyInclusion(tree[index], index, size, path, merkleLeafHash(root))).toBe(false);
      }
    }
  });

  it('gives the reference consistency proofs', () => {
    expect(consistencyProof(LEAVES, 8).map(hex)).toEqual([]);
    expect(consistencyProof(LEAVES, 1).map(hex)).toEqual([
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ]);
    expect(consistencyProof(LEAVES, 6).map(hex)).toEqual([
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ]);
    expect(consistencyProof(LEAVES.slice(0, 5), 2).map(hex)).toEqual([
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ]);
  });

  it('verifies every consistency proof up to 37 leaves, and refuses a rewritten history', () => {
    const leaves = Array.from({ length: 37 }, (_, i) => merkleLeafHash(Uint8Array.of(i, i * 3)));
    for (let second = 1; second <= leaves.length; second++) {
      const secondRoot = merkleRoot(leaves.slice(0, second));
      for (let first = 1; first <= second; first++) {
        const proof = consistencyProof(leaves.slice(0, second), first);
        const firstRoot = merkleRoot(leaves.slice(0, first));
        expect(verifyConsistency(first, second, proof, firstRoot, secondRoot)).toBe(true);
        const rewritten = merkleRoot([merkleLeafHash(Uint8Array.of(255)), ...leaves.slice(1, first)]);
        expect(verifyConsistency(first, second, proof, rewritten, secondRoot)).toBe(false);
      }
    }
  });
});

describe('MerkleFrontier', () => {
  it('has the root merkleRoot computes, leaf by leaf, for every size up to 70', () => {
    const leaves = Array.from({ length: 70 }, (_, i) => merkleLeafHash(Buffer.from(`record ${i}`)));
    const frontier = new MerkleFrontier();
    expect(frontier.root()).toEqual(merkleRoot([]));
    for (const [i, leaf] of leaves.entries()) {
      frontier.append(leaf);
      expect({ size: frontier.size, root: frontier.root().toString('hex') }).toEqual({
        size: i + 1,
        root: merkleRoot(leaves.slice(0, i + 1)).toString('hex'),
      });
    }
  });
});
