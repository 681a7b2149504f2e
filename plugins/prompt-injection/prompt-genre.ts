/**
 * Does a text open the way a prompt to an assistant opens ("Act as a travel planner.", "You are a code reviewer.",
 * "I want you to act as …", "# Role")? Then its imperative lines are its own duties, not a task smuggled into data,
 * and the foreign-task-line test (which stands in for knowing the user's task in a retrieved email or page) has
 * nothing to find. The other layers (phrase families, the learned scorer) still read every line: a role prompt that
 * overrides instructions or asks for secrets is caught by what it says, not by its shape.
 *
 * Only the opening is read: after skipping blank lines, markdown headings and HTML comments, at most PREFIX
 * characters, so the regexes run in bounded time whatever the input.
 */
const PREFIX = 240;

/** A name of one word: "your name is Pia and you …". */
const NAME = '[^ ,.]+';
/** One or two words and a comma: "You are now Captain Wren, a …", "Ahora eres Pablo, un …". */
const NAMED = `${NAME}(?: ${NAME})?, `;

// Openers in the seven screened languages. Case-insensitive; accents optional where people drop them.
const LATIN_OPENERS = new RegExp(
  '^(?:please[ ,]+)?(?:' +
    [
      // en
      'act as',
      'you are (?:an?|the|my|our) ',
      'you will (?:act|be|play)',
      'i(?: want|.?d like| would like| need) you to (?:act|be|play|pretend|take|become)',
      // Persona and game set-ups: a named character with its own rules for the rest of the chat.
      // A bare "you are now" opens mails too ("You are now subscribed"): an article or a name and a comma must follow.
      `you are now (?:an?|the|my|our|${NAMED})`,
      `your name is ${NAME} and you`,
      '(?:let.?s|we.?ll) play a (?:game|role)',
      'role-?play as ',
      'for the rest of (?:this|our|the) (?:chat|conversation|session)',
      'imagine (?:that )?you are',
      'pretend (?:to be|you are|that you are)',
      'take on the role',
      'play the (?:part|role)',
      'your (?:role|task|job|goal)(?: is|:)',
      'behave like',
      `from now on,? you are (?:an?|the|my|${NAMED})`,
      // de
      'agiere als',
      'du bist (?:ein|eine|der|die|das|mein|meine) ',
      'ich (?:möchte|moechte|will), dass du',
      'stell dir vor,? (?:dass )?du',
      'schlüpfe in die rolle',
      'deine (?:aufgabe|rolle)(?: ist|:)',
      `(?:ab (?:jetzt|sofort) bist du|du bist (?:jetzt|nun)) (?:ein|eine|der|die|das|${NAMED})`,
      `dein name ist ${NAME} und du`,
      'lass uns ein (?:spiel|rollenspiel)',
      'f[uü]r den rest (?:des|dieses|unseres) (?:chats|gespr[aä]chs)',
      // es
      'act[uú]a como',
      'eres (?:un|una|el|la|mi) ',
      'quiero que act[uú]es',
      'imagina que eres',
      'asume el papel',
      'tu (?:tarea|funci[oó]n|papel)(?: es|:)',
      `(?:a partir de )?ahora,? eres (?:un|una|el|la|${NAMED})`,
      `te llamas ${NAME} y eres`,
      'juguemos a ',
      'durante el resto (?:del|de este) (?:chat|conversaci[oó]n)',
      `interpreta a ${NAMED}`,
      // fr
      'agis comme',
      'tu es (?:un|une|le|la|mon|ma) ',
      'je (?:veux|voudrais) que tu',
      'imagine que tu',
      'joue le r[oô]le',
      'ta (?:mission|t[aâ]che|r[oô]le)(?: est| ?:)',
      `(?:[aà] partir de maintenant,? tu es|tu es maintenant) (?:un|une|le|la|${NAMED})`,
      `tu t.appelles ${NAME} et tu`,
      'jouons [aà] ',
      'pour le reste de (?:la|cette|notre) (?:conversation|discussion)',
      `incarne ${NAMED}`,
      // pt
      'atue como',
      'voc[eê] [eé] (?:um|uma|o|a|meu|minha) ',
      'quero que voc[eê]',
      'imagine que voc[eê]',
      'assuma o papel',
      'sua (?:tarefa|fun[cç][aã]o)(?: [eé]|:)',
      `(?:a partir de )?agora,? voc[eê] [eé] (?:um|uma|o|a|${NAMED})`,
      `seu nome [eé] ${NAME} e voc[eê]`,
      'vamos jogar ',
      'pelo resto d[ao] (?:conversa|chat)',
      `interprete ${NAMED}`,
    ].join('|') +
    ')',
  'i',
);
const CJK_OPENERS =
  /^(?:请你?(?:充当|扮演|作为)|我(?:希望|想让|要)你(?:充当|扮演|作为)|你是一?[名位个]?|(?:从现在(?:开始|起)|你现在)，?你?是|我们来玩|在接下来的对话(?:里|中)，?请?扮演|你的名字叫.{1,12}，你是|请以.{1,20}的身份|あなたは.{1,30}(?:です|として)|.{1,30}として振る舞|.{1,30}を演じ|今からあなたは|ゲームをしましょう|この会話の間|あなたの名前は.{1,12}で)/;

function opening(text: string): string {
  let at = 0;
  // Skip leading blank lines, markdown headings ("# Role") and HTML comments (prompt libraries start with them).
  for (let guard = 0; guard < 8 && at < text.length; guard++) {
    while (at < text.length && /\s/.test(text[at]!)) at++;
    if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at);
      if (end < 0 || end - at > 2_000) break;
      at = end + 3;
      continue;
    }
    if (text[at] === '#') {
      const nl = text.indexOf('\n', at);
      if (nl < 0 || nl - at > 200) break;
      at = nl + 1;
      continue;
    }
    break;
  }
  return text.slice(at, at + PREFIX);
}

export function opensAsPrompt(text: string): boolean {
  const head = opening(text);
  return LATIN_OPENERS.test(head) || CJK_OPENERS.test(head);
}

/**
 * Does a text open by handing over a passage to work on ("Given the background: …", "You are given a new situation:
 * …", "Context: …", "Read the passage below …")? Then a question or task after the passage, at its end, is the
 * prompt's own ("… Answer this question: who has a lower BMI?"), not one slipped into it.
 */
const CONTEXT_OPENERS =
  /^(?:please[ ,]+)?(?:(?:you are|you're|i am|i'm|we are) given|given (?:the|this|a|an|these|following) |(?:i can |we can |you can )?use (?:this|the following|these) |read (?:the|this|these|following) |(?:i|we) have (?:a|an|the|this) (?:new )?(?:situation|passage|text|background|context|article|paragraph|story|scenario)|(?:background|context|passage|article|text|situation|paragraph|document|story|input|excerpt|snippet)\s*:)/i;

export function opensWithContext(text: string): boolean {
  return CONTEXT_OPENERS.test(opening(text));
}
