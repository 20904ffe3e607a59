/**
 * The languages a course can be written in: one list, read by the /create form, validated on
 * the server, written into every AI prompt (`languageInstruction`) and used to set `lang` and
 * `dir` wherever course text is shown. The UI chrome stays English.
 */
export interface Language {
  /** BCP 47 code, stored on outlines and courses and used as the HTML `lang`. */
  code: string;
  /** The name the prompt and the UI use. */
  name: string;
  /** The name in the language itself, shown beside the English one on /create. */
  nativeName: string;
  dir: 'ltr' | 'rtl';
}

export const LANGUAGES = [
  { code: 'en', name: 'English', nativeName: 'English', dir: 'ltr' },
  { code: 'hi', name: 'Hindi', nativeName: 'हिन्दी', dir: 'ltr' },
  { code: 'bn', name: 'Bengali', nativeName: 'বাংলা', dir: 'ltr' },
  { code: 'ta', name: 'Tamil', nativeName: 'தமிழ்', dir: 'ltr' },
  { code: 'te', name: 'Telugu', nativeName: 'తెలుగు', dir: 'ltr' },
  { code: 'mr', name: 'Marathi', nativeName: 'मराठी', dir: 'ltr' },
  { code: 'es', name: 'Spanish', nativeName: 'Español', dir: 'ltr' },
  { code: 'pt', name: 'Portuguese', nativeName: 'Português', dir: 'ltr' },
  { code: 'fr', name: 'French', nativeName: 'Français', dir: 'ltr' },
  { code: 'de', name: 'German', nativeName: 'Deutsch', dir: 'ltr' },
  { code: 'it', name: 'Italian', nativeName: 'Italiano', dir: 'ltr' },
  { code: 'nl', name: 'Dutch', nativeName: 'Nederlands', dir: 'ltr' },
  { code: 'pl', name: 'Polish', nativeName: 'Polski', dir: 'ltr' },
  { code: 'ru', name: 'Russian', nativeName: 'Русский', dir: 'ltr' },
  { code: 'tr', name: 'Turkish', nativeName: 'Türkçe', dir: 'ltr' },
  { code: 'ar', name: 'Arabic', nativeName: 'العربية', dir: 'rtl' },
  { code: 'ur', name: 'Urdu', nativeName: 'اردو', dir: 'rtl' },
  { code: 'id', name: 'Indonesian', nativeName: 'Bahasa Indonesia', dir: 'ltr' },
  { code: 'vi', name: 'Vietnamese', nativeName: 'Tiếng Việt', dir: 'ltr' },
  { code: 'th', name: 'Thai', nativeName: 'ไทย', dir: 'ltr' },
  { code: 'zh', name: 'Chinese', nativeName: '中文', dir: 'ltr' },
  { code: 'ja', name: 'Japanese', nativeName: '日本語', dir: 'ltr' },
  { code: 'ko', name: 'Korean', nativeName: '한국어', dir: 'ltr' },
] as const satisfies readonly Language[];

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

export const DEFAULT_LANGUAGE: LanguageCode = 'en';

export const LANGUAGE_CODES = LANGUAGES.map((language) => language.code) as [
  LanguageCode,
  ...LanguageCode[],
];

export const UNKNOWN_LANGUAGE_MESSAGE = 'Please choose a language from the list';

export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === 'string' && LANGUAGES.some((language) => language.code === value);
}

/** The language of a stored code; anything unknown (an old row, a typo) reads as English. */
export function languageOf(code: string | null | undefined): Language {
  return LANGUAGES.find((language) => language.code === code) ?? LANGUAGES[0];
}

/** `lang` and `dir` for an element holding course text. */
export function languageAttributes(code: string | null | undefined): {
  lang: string;
  dir: 'ltr' | 'rtl';
} {
  const language = languageOf(code);
  return { lang: language.code, dir: language.dir };
}

/**
 * The lines every AI prompt ends with, so the outline, lessons, quizzes and tutor answers are
 * all written in the course's language. `Language: <English name>` is also what the demo-mode
 * mocks read (mocks/ai-answers.ts) to answer in that language's script.
 */
export function languageInstruction(code: string | null | undefined): string {
  const language = languageOf(code);
  return [
    `Language: ${language.name}`,
    `Write every title and all text of your answer in ${language.name} (${language.nativeName}), whatever the language of the topic or of these instructions; keep code, commands and proper names as they are. JSON keys stay in English.`,
  ].join('\n');
}
