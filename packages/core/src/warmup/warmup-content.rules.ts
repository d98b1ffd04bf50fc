// What a warmup e-mail says: a built-in corpus of subjects and bodies written with spintax
// (the sending engine's spin()), the mailbox's custom words mixed in, its warmup signature, and
// the warmup code on a line of its own. Pure: the seed (the code) decides every choice, so a
// re-rendered e-mail says the same thing.
import { pickIndex } from '../shared/hash';
import { spin } from '../sending/index';

const SUBJECTS = [
  '{Quick|Short} question about {next week|the plan|our call}',
  '{Notes|Thoughts} from {today|this morning|our chat}',
  '{Catching up|Checking in} on the {project|proposal|draft}',
  '{Lunch|Coffee} {next week|on Thursday|soon}?',
  'Re {the|our} {budget|timeline|roadmap} {review|update}',
  '{Updated|Revised} {agenda|schedule|numbers}',
  '{Following up|A follow-up} on {the workshop|the meeting|Tuesday}',
  '{Ideas|Feedback} for the {newsletter|website|launch}',
  '{Your|The} {slides|document|spreadsheet} {look great|are ready}',
  '{Weekend|Friday} {plans|update}',
  '{Small|Tiny} favour',
  '{Team|Office} {offsite|event} {details|logistics}',
];

const OPENINGS = ['{Hi|Hello|Hey} {{name}},', '{Hi|Hello} {{name}}!', '{Good morning|Good afternoon} {{name}},'];

const BODIES = [
  '{I hope|Hope} your week is going {well|smoothly}. {I went through|I looked at} the {draft|notes|plan} you sent and {it reads well|it makes sense to me}. {Could we|Shall we} {talk it over|go through it} {on Thursday|early next week}?',
  '{Thanks for|Many thanks for} {the update|your message|sending this over}. {I will|I\'ll} {have a look|take a closer look} {this afternoon|tomorrow morning} and {get back to you|send my comments}.',
  '{Just|Only} {a quick note|a short message} to {say|confirm} that the {meeting|call|session} is {still on|confirmed} for {Tuesday|Wednesday|Friday}. {Let me know|Tell me} if {anything changes|the time does not suit you}.',
  '{I was thinking|It occurred to me} that we {could|might} {move|shift} the {review|deadline|demo} by {a day|two days|a week}. {What do you think|Would that work for you}?',
  '{The numbers|The figures|The results} {came in|arrived} {this morning|yesterday} and they {look|seem} {better than expected|encouraging}. {I\'ll|I will} {share|circulate} {a summary|the details} {soon|later today}.',
  '{Do you have|Have you got} {a few minutes|some time} {this week|tomorrow} to {go over|look at} the {proposal|outline|slides}? {No rush|There is no hurry}, {whenever suits you|any time works}.',
  '{It was great|It was good|Lovely} to {catch up|see you} {yesterday|last week}. {As promised|As discussed}, {here are|I am sending} {a few|some} {thoughts|notes} on {next steps|the plan}.',
  '{Could you|Would you} {send me|forward} the {latest|final} {version|copy} of the {document|file|report} {when you get a chance|when you can}? {Thanks|Much appreciated}.',
  '{We are|We\'re} {planning|organising} a {small|short} {get-together|meeting} {next month|in a few weeks} and {would love|would be glad} to {have you there|see you}.',
  '{I found|I came across} {an article|a piece|a talk} {about|on} {productivity|remote work|planning} that {you might like|might interest you}. {Happy to|I can} {send it over|share it}.',
];

const REPLIES = [
  '{Thanks|Thank you|Many thanks}, {that works for me|sounds good|that is helpful}. {Talk soon|Speak soon}.',
  '{Great|Perfect}, {I\'ll|I will} {take a look|have a read} and {come back to you|reply properly} {later|tomorrow}.',
  '{Sounds good|Works for me}! {Let\'s|Let us} {go with that|do it that way}.',
  '{Good to hear|Nice to hear from you}. {Yes|Sure}, {Thursday|next week|that day} {is fine|suits me}.',
  '{Thanks for|Appreciate} {the note|the update|following up}. {All clear|Understood} on my side.',
  '{Noted|Got it}, {thanks|thank you}. {I\'ll|I will} {keep you posted|let you know how it goes}.',
];

const CUSTOM_WORD_LINES = [
  '{By the way|Also|One more thing}, {any news on|how is it going with} {{word}}?',
  '{I also|We also} {need to|should} {talk about|look at} {{word}} {soon|at some point}.',
  '{PS|P.S.}: {don\'t forget|remember} {{word}}.',
];

const CLOSINGS = ['{Best|Best regards|Kind regards|Thanks|Cheers},', '{All the best|Many thanks|Regards},'];

/** The custom words of a mailbox's warmup settings (comma- or newline-separated), trimmed, without blanks. */
export function customWords(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((w) => w.trim())
    .filter(Boolean)
    .slice(0, 100);
}

export interface WarmupContent {
  subject: string;
  text: string;
}

const pick = <T>(list: readonly T[], seed: string, salt: string): T => list[pickIndex(`${salt}\u0000${seed}`, list.length)] as T;

function render(template: string, seed: string, values: Record<string, string>): string {
  // Values are put in after spinning: a name or word holding braces is never read as spintax.
  const spun = spin({ text: template, seed });
  return spun.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => values[key] ?? '');
}

/**
 * A warmup e-mail from `from` to `to`: an opening, a body (and, for a first e-mail, a subject)
 * from the corpus, one of the custom words in a line of its own when there are any, a closing
 * with the sender's first name, the warmup signature, and the code on the last line.
 * `reply`: an answer in a conversation (`Re:` the subject given, a short reply text).
 */
export function warmupContent(options: {
  code: string;
  fromName: string;
  toName: string;
  customWords: string[];
  signature: string;
  reply?: { subject: string };
}): WarmupContent {
  const { code } = options;
  const name = options.toName.trim() || 'there';
  const parts = [render(pick(OPENINGS, code, 'open'), code, { name })];
  parts.push(render(options.reply ? pick(REPLIES, code, 'reply') : pick(BODIES, code, 'body'), code, {}));
  if (options.customWords.length) parts.push(render(pick(CUSTOM_WORD_LINES, code, 'wordline'), code, { word: pick(options.customWords, code, 'word') }));
  parts.push(`${render(pick(CLOSINGS, code, 'close'), code, {})}\n${options.fromName.trim() || 'Me'}`);
  if (options.signature.trim()) parts.push(options.signature.trim());
  parts.push(code);
  const subject = options.reply
    ? /^\s*re\s*:/i.test(options.reply.subject)
      ? options.reply.subject
      : `Re: ${options.reply.subject}`
    : render(pick(SUBJECTS, code, 'subject'), code, {});
  return { subject, text: parts.join('\n\n') };
}
