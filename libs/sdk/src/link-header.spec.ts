import { nextPage } from './admin-client';
import { findLink, parseLinkHeader } from './link-header';

describe(parseLinkHeader.name, () => {
  it('reads the platform own next link', () => {
    expect(parseLinkHeader('<http://127.0.0.1:3000/v1/oauth/apps?limit=2&after=page-b>; rel="next"')).toEqual(
      [{ target: 'http://127.0.0.1:3000/v1/oauth/apps?limit=2&after=page-b', params: { rel: 'next' } }],
    );
  });

  it('splits several links, and not on commas or semicolons inside targets or quoted values', () => {
    expect(
      parseLinkHeader('</a?x=1,2;3>; rel="prev"; title="one, two; three", </b>;rel=next ;  type=text/html'),
    ).toEqual([
      { target: '/a?x=1,2;3', params: { rel: 'prev', title: 'one, two; three' } },
      { target: '/b', params: { rel: 'next', type: 'text/html' } },
    ]);
  });

  it('lower-cases parameter names, unescapes quoted pairs and keeps the first of a repeated parameter', () => {
    expect(parseLinkHeader('</c>; REL="next"; title="say \\"hi\\""; rel="prev"')).toEqual([
      { target: '/c', params: { rel: 'next', title: 'say "hi"' } },
    ]);
  });

  it('treats an absent, empty or malformed header as no links', () => {
    expect(parseLinkHeader(null)).toEqual([]);
    expect(parseLinkHeader(undefined)).toEqual([]);
    expect(parseLinkHeader('')).toEqual([]);
    expect(parseLinkHeader('rel="next"')).toEqual([]);
    expect(parseLinkHeader('<unclosed; rel="next"')).toEqual([]);
  });

  it('skips a malformed part and keeps the good ones around it', () => {
    expect(parseLinkHeader('garbage, </ok>; rel="next"').map((l) => l.target)).toEqual(['/ok']);
  });
});

describe(findLink.name, () => {
  it('finds a rel among several space-separated relation types, case-insensitively', () => {
    expect(findLink('</x>; rel="prev", </y>; rel="last NEXT"', 'next')).toBe('/y');
  });

  it('answers undefined when no link has the rel', () => {
    expect(findLink('</x>; rel="prev"', 'next')).toBeUndefined();
    expect(findLink(null, 'next')).toBeUndefined();
  });
});

describe(nextPage.name, () => {
  it('keeps only the cursor and the limit of the next link, never its host', () => {
    expect(nextPage('<https://elsewhere.example/v1/oauth/apps?limit=2&after=page-b>; rel="next"')).toEqual({
      limit: 2,
      after: 'page-b',
    });
  });

  it('reads a relative target and a cursor that needs decoding', () => {
    expect(nextPage('</v1/oauth/apps?after=a%2Fb>; rel="next"')).toEqual({ after: 'a/b' });
  });

  it('answers undefined on the last page or for a next link without a cursor', () => {
    expect(nextPage(null)).toBeUndefined();
    expect(nextPage('</v1/oauth/apps?limit=2>; rel="next"')).toBeUndefined();
  });
});
