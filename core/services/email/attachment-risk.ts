/** Attachment types by what they can do when opened. Lists are of extensions, lower case, without the dot. */
const EXECUTABLE = new Set([
  'exe',
  'scr',
  'com',
  'pif',
  'cpl',
  'msi',
  'msp',
  'dll',
  'bat',
  'cmd',
  'ps1',
  'psm1',
  'vbs',
  'vbe',
  'js',
  'jse',
  'wsf',
  'wsh',
  'hta',
  'jar',
  'lnk',
  'reg',
  'sh',
  'app',
  'dmg',
  'pkg',
  'apk',
  'iso',
  'img',
  'vhd',
  'vhdx',
  'xll',
  'one',
  'appx',
  'msix',
  'chm',
  'url',
  'library-ms',
  'search-ms',
]);
/** Pages that run script when opened from disk (HTML smuggling, local phishing forms). */
const ACTIVE_DOCUMENT = new Set(['html', 'htm', 'xhtml', 'shtml', 'svg', 'mht', 'mhtml']);
const MACRO_DOCUMENT = new Set(['docm', 'dotm', 'xlsm', 'xltm', 'xlam', 'pptm', 'potm', 'ppam', 'sldm']);
const ARCHIVE = new Set(['zip', 'rar', '7z', 'gz', 'tgz', 'bz2', 'xz', 'tar', 'cab', 'ace', 'arj', 'lzh', 'z']);
const DANGEROUS_TYPES = [
  /^application\/(x-msdownload|x-msdos-program|x-ms-installer|x-executable|x-sh|hta|x-ms-shortcut|java-archive)$/,
  /^text\/(html|javascript|vbscript)$/,
  /^image\/svg\+xml$/,
];
const DOCUMENT_DECOYS = new Set(['pdf', 'doc', 'docx', 'xls', 'xlsx', 'txt', 'jpg', 'jpeg', 'png', 'invoice']);

export type AttachmentRisk = 'dangerous' | 'archive' | 'ok';

export function attachmentRisk(filename: string, contentType: string): { risk: AttachmentRisk; reason: string } {
  const name = filename
    .trim()
    .toLowerCase()
    .replace(/[\s.]+$/, '');
  const parts = name.split('.');
  const ext = parts.length > 1 ? parts.at(-1)! : '';
  const inner = parts.length > 2 ? parts.at(-2)! : '';
  if (EXECUTABLE.has(ext)) {
    const decoy = DOCUMENT_DECOYS.has(inner) ? ` behind a .${inner} decoy` : '';
    return { risk: 'dangerous', reason: `.${ext} runs code when opened${decoy}` };
  }
  if (ACTIVE_DOCUMENT.has(ext)) return { risk: 'dangerous', reason: `.${ext} opens as a page that can run script` };
  if (MACRO_DOCUMENT.has(ext)) return { risk: 'dangerous', reason: `.${ext} is an Office document with macros` };
  const type = contentType.trim().toLowerCase();
  if (DANGEROUS_TYPES.some((re) => re.test(type))) return { risk: 'dangerous', reason: `content type ${type}` };
  if (ARCHIVE.has(ext)) return { risk: 'archive', reason: `.${ext} archive: its contents are not inspected` };
  return { risk: 'ok', reason: 'document or media type' };
}
