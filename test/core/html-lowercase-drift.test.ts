// Case-insensitive searches for closing tags run over a lower-cased copy of the page. `toLowerCase` turns "İ" into
// two code units, so with enough of them before a <script> the positions found in the copy pointed elsewhere in the
// page: script text leaked into the visible text, and text after the script was lost.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readHtml } from '../../core/engine/text/html-document.ts';
import { htmlToText } from '../../core/engine/text/html-text.ts';
import { asciiLowerCase } from '../../core/engine/text/normalise.ts';

const page = `<p>${'İ'.repeat(40)}</p><SCRIPT>var secretToken = 1;</SCRIPT><p>Visible after the script</p>`;

describe('closing-tag search on pages with characters that lower-case longer', () => {
  it('asciiLowerCase keeps every index', () => {
    const s = 'İSTANBUL <SCRIPT> Ǆ';
    assert.equal(asciiLowerCase(s).length, s.length);
    assert.equal(asciiLowerCase(s), 'İstanbul <script> Ǆ');
  });
  it('htmlToText drops the script body and keeps the text after it', () => {
    const text = htmlToText(page);
    assert.ok(!text.includes('secretToken'), text);
    assert.ok(text.includes('Visible after the script'), text);
  });
  it('readHtml does too', () => {
    const doc = readHtml(page);
    assert.ok(!doc.visibleText.includes('secretToken'), doc.visibleText);
    assert.ok(doc.visibleText.includes('Visible after the script'), doc.visibleText);
    assert.deepEqual(doc.inlineScripts, ['var secretToken = 1;']);
  });
});
