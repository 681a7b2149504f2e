/** Pulls `<!-- ... -->` out of plain text: a rendered Markdown document or email shows none of it. */
export function extractComments(text: string): { visible: string; comments: string[] } {
  if (text.indexOf('<!--') < 0) return { visible: text, comments: [] };
  let visible = '';
  const comments: string[] = [];
  let i = 0;
  while (i < text.length) {
    const start = text.indexOf('<!--', i);
    if (start < 0) break;
    const end = text.indexOf('-->', start + 4);
    if (end < 0) break;
    visible += `${text.slice(i, start)}\n`;
    comments.push(text.slice(start + 4, end));
    i = end + 3;
  }
  visible += text.slice(i);
  return { visible, comments };
}
