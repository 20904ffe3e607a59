import { z } from 'zod';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES, UNKNOWN_LANGUAGE_MESSAGE } from '~/domain/languages';

/**
 * A course language in a form or API body: a code from the list, English when absent; any
 * other value is refused with a 400 naming the problem.
 */
export const courseLanguage = z
  .enum(LANGUAGE_CODES, { error: UNKNOWN_LANGUAGE_MESSAGE })
  .default(DEFAULT_LANGUAGE);
