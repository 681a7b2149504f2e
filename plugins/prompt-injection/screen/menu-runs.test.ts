// Menu runs: breadcrumbs and one-item-per-line menus are found (and so blanked for the learned scorer); prose, an
// e-mail's quoted reply and a short chain are not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { menuLineRuns, menuRuns } from './menu-runs.ts';

const slice = (text: string, runs: [number, number][]) => runs.map(([a, b]) => text.slice(a, b));

describe('menuRuns', () => {
  it('finds an inline breadcrumb of four separators or more', () => {
    const text = 'You are here: Home > Law > Criminal law > Investigation > Custody. The court ruled on Monday.';
    assert.deepEqual(slice(text, menuRuns(text)), [
      'You are here: Home > Law > Criminal law > Investigation > Custody',
    ]);
  });
  it('finds runs with » and ›', () => {
    const text = 'Start » Shop » Kitchen » Knives » Bread knife\nBlog › 2024 › May › Recipes › Soup';
    assert.equal(menuRuns(text).length, 2);
  });
  it('ignores a short chain and comparisons in prose', () => {
    assert.deepEqual(menuRuns('Settings > Privacy > Cookies lets you clear them.'), []);
    assert.deepEqual(menuRuns('If x > 3 and y > 4, the loop stops; a > b holds, and c > d never does.'), []);
  });
  it('breaks a run at a sentence end or a long item', () => {
    const long = 'a very long item that goes on and on well past sixty characters of text';
    assert.deepEqual(menuRuns(`A > B > ${long} > C > D`), []);
  });
});

describe('menuLineRuns', () => {
  it('finds six or more short lines that open with a separator', () => {
    const menu = ['> Enquête', '> Instruction', '> Jugement', '> Mineur', '> Peine', '> Presse'].join('\n\n');
    const text = `Pénal\n\n${menu}\n\nSocial`;
    assert.deepEqual(slice(text, menuLineRuns(text)), [menu]);
  });
  it("leaves an e-mail's quoted reply alone", () => {
    const quoted = [
      '> Hi Ana, thanks for the draft.',
      '> I read it on the train this morning.',
      '> Two small things:',
      '> the date on page 2 is wrong.',
      '> and the logo is blurry.',
      '> Best, Tom',
    ].join('\n');
    assert.deepEqual(menuLineRuns(quoted), []);
  });
  it('needs six lines in a row', () => {
    assert.deepEqual(menuLineRuns('> One\n> Two\n> Three\n> Four\n> Five\nplain text'), []);
  });
});
