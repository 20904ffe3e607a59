import { describe, expect, it } from 'vitest';
import { checkLogo } from './brand-logo.server';

const svg = (body: string, attributes = '') =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"${attributes}>${body}</svg>`,
  );
const refusal = (bytes: Buffer) => {
  const result = checkLogo(bytes);
  return result.ok ? null : result.message;
};

describe('an uploaded logo', () => {
  it('refuses an SVG that could act, saying what is in it', () => {
    expect(refusal(svg('<script>alert(1)</script>'))).toContain('contains a script');
    expect(refusal(svg('<rect/>', ' onload="alert(1)"'))).toContain('an event handler (onload)');
    expect(refusal(svg('<foreignObject><div/></foreignObject>'))).toContain('foreignObject');
    expect(refusal(svg('<a href="javascript:alert(1)"><rect/></a>'))).toContain(
      'a link to something outside',
    );
    expect(refusal(svg('<image href="https://tracker.example/p.png"/>'))).toContain(
      'outside the logo',
    );
    expect(refusal(svg('<set attributeName="href" to="javascript:alert(1)"/>'))).toContain(
      'animation',
    );
    expect(refusal(svg('<style>@import url(https://x.example/a.css);</style>'))).toContain('style');
    expect(
      refusal(Buffer.from('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "b">]><svg/>')),
    ).toContain('entity declarations');
    expect(refusal(Buffer.from('<html><svg/></html>'))).toBe(
      'The logo must be an SVG, PNG or JPEG image',
    );
  });

  it('keeps a plain drawing, its internal references and gradients, without editor metadata', () => {
    const result = checkLogo(
      svg(
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs><sodipodi:namedview/><rect fill="url(#g)" width="10" height="10"/><use href="#g"/>',
        ' sodipodi:docname="logo.svg"',
      ),
    );
    expect(result.ok).toBe(true);
    const kept = result.ok ? result.value.bytes.toString() : '';
    expect(kept).toContain('<linearGradient id="g">');
    expect(kept).toContain('fill="url(#g)"');
    expect(kept).toContain('<use href="#g">');
    expect(kept).not.toContain('sodipodi');
  });
});
