import { findUnstorableText, textFault } from './storable-text';

describe(textFault.name, () => {
  it('accepts any well-formed text without a NUL, astral characters included', () => {
    expect(textFault('ada@example.com 🦄 \uffff')).toBeUndefined();
  });

  it('refuses a NUL, unless the text is opaque', () => {
    expect(textFault('a\u0000b')).toBe('holds a NUL character');
    expect(textFault('a\u0000b', true)).toBeUndefined();
  });

  it('refuses a lone surrogate, opaque or not', () => {
    for (const text of ['\ud800', 'a\udc00', '\udc00\ud800'])
      expect(textFault(text, true)).toBe('holds a lone surrogate');
  });
});

describe(findUnstorableText.name, () => {
  it('names the first faulty text by its path, member names included', () => {
    expect(findUnstorableText({ emails: [{ value: 'ok' }, { value: 'a\u0000' }] }, '')).toEqual({
      where: 'emails[1].value',
      fault: 'holds a NUL character',
    });
    expect(findUnstorableText({ nested: { 'k\u0000': 1 } }, 'body')).toEqual({
      where: 'a member name of body.nested',
      fault: 'holds a NUL character',
    });
  });

  it('lets opaque top-level members hold a NUL anywhere inside, but not a lone surrogate', () => {
    const opaque = (member: string) => member === 'payload';
    expect(findUnstorableText({ payload: { 'k\u0000': ['\u0000'] } }, '', opaque)).toBeUndefined();
    expect(findUnstorableText({ payload: '\ud800' }, '', opaque)?.fault).toBe('holds a lone surrogate');
    expect(findUnstorableText({ type: '\u0000', payload: '\u0000' }, '', opaque)?.where).toBe('type');
  });

  it('names opaque members inside arrays by their path without indices', () => {
    const opaque = (member: string) => member === 'completions[].output';
    const body = { completions: [{ output: '\u0000' }, { output: { o: '\u0000' } }] };
    expect(findUnstorableText(body, '', opaque)).toBeUndefined();
    expect(findUnstorableText({ completions: [{ output: 'x', id: '\u0000' }] }, '', opaque)?.where).toBe(
      'completions[0].id',
    );
    expect(findUnstorableText({ output: '\u0000' }, '', opaque)?.where).toBe('output');
  });

  it('leaves bytes, numbers and null alone', () => {
    expect(findUnstorableText({ raw: Buffer.from([0]), n: 0, none: null }, '')).toBeUndefined();
  });
});
