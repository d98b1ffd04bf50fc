import { describe, expect, it } from 'vitest';
import { htmlToText } from './mail-html';

describe('htmlToText', () => {
  it('turns a realistic e-mail body into readable text', () => {
    const html = `<!DOCTYPE html>
<html>
  <head>
    <meta charset="utf-8">
    <title>Newsletter</title>
    <style>p { margin: 0 0 12px; } .hidden { display: none }</style>
  </head>
  <body>
    <!-- preview: do not show -->
    <div class="wrapper"><div class="inner">
      <h1>A quick   idea</h1>
      <p>Hi Ada,</p>
      <p>Teams like <b>Analytical&nbsp;Engines</b> ship faster &mdash; here&rsquo;s how:<br>
         no rewrite needed.</p>
      <ul>
        <li>Fewer &lt;bugs&gt; &amp; outages</li>
        <li><p>Read the <a href="https://acme.example/cases?a=1&amp;b=2">case studies</a></p></li>
      </ul>
      <p>See <a href="https://acme.example">https://acme.example</a> or <a href="mailto:bob@acme.example">write to me</a>.</p>
      <div>Best,<br>Bob <img src="https://acme.example/logo.png" alt="Acme"></div>
      <div><br></div>
      <div>&copy; Acme &#8211; &#x2603;</div>
    </div></div>
    <script>track();</script>
  </body>
</html>`;
    expect(htmlToText(html)).toBe(
      [
        'A quick idea',
        '',
        'Hi Ada,',
        '',
        'Teams like Analytical Engines ship faster — here’s how:',
        'no rewrite needed.',
        '',
        '- Fewer <bugs> & outages',
        '- Read the case studies (https://acme.example/cases?a=1&b=2)',
        '',
        'See https://acme.example or write to me.',
        '',
        'Best,',
        'Bob [Acme]',
        '',
        '© Acme – ☃',
      ].join('\n'),
    );
  });

  it('keeps editor blank lines but never more than one in a row', () => {
    // Quill writes an empty line as <p><br></p>, Gmail-style editors as <div><br></div>.
    expect(htmlToText('<p>One</p><p><br></p><p>Two</p>')).toBe('One\n\nTwo');
    expect(htmlToText('<div>One</div><div><br></div><div>Two</div>')).toBe('One\n\nTwo');
    expect(htmlToText('<div>One</div><div>Two</div>')).toBe('One\nTwo');
    expect(htmlToText('One<br><br><br><br>Two')).toBe('One\n\nTwo');
  });

  it('writes tables row by row with cells separated', () => {
    expect(htmlToText('<table><tr><td>Plan</td><th>Price</th></tr><tr><td>Pro</td><td>$9</td></tr></table>')).toBe('Plan Price\nPro $9');
  });

  it('numbers ordered list items', () => {
    expect(htmlToText('<ol><li>one</li><li>two</li></ol><ol start="5"><li>five</li></ol>')).toBe('1. one\n2. two\n5. five');
  });

  it('writes links as label (URL), the URL alone when it is the label, the label alone for mailto', () => {
    expect(htmlToText('<a href="https://x.example/p">Pricing</a>')).toBe('Pricing (https://x.example/p)');
    expect(htmlToText('<a href="https://x.example/">x.example</a>')).toBe('https://x.example/');
    expect(htmlToText('<a href="mailto:a@x.example">Ada</a>')).toBe('Ada');
    expect(htmlToText('<a href="https://x.example/" title="a > b"><img src="i.png" alt=""></a>')).toBe('https://x.example/');
  });

  it('returns text without tags with entities decoded and line breaks kept', () => {
    expect(htmlToText('Hi  Ada &amp; co,\r\n\r\n\r\n\t Thanks &#8212; Bob   \n&unknown; < 5')).toBe('Hi Ada & co,\n\nThanks — Bob\n&unknown; < 5');
  });

  it('stays linear on pathological input', () => {
    // Every `>` inside a quoted value and a last quote never closed: a scanner trusting
    // quotes would rescan to the end from each of the 20,000 `<a`.
    // (A quadratic scan would run past the test's timeout; speed itself is measured by benchmarks.)
    expect(htmlToText('<a "x>"'.repeat(20_000) + '"')).toBe('"'.repeat(20_001));
  });
});
