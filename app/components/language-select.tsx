import { LANGUAGES } from '~/domain/languages';

/** The course language choice on /create: English names, each with its own name beside it. */
export function LanguageSelect({
  value,
  onChange,
}: {
  value: string;
  onChange: (code: string) => void;
}) {
  return (
    <label>
      Course language
      <select name="language" value={value} onChange={(event) => onChange(event.target.value)}>
        {LANGUAGES.map((language) => (
          <option key={language.code} value={language.code}>
            {language.name === language.nativeName
              ? language.name
              : `${language.name} (${language.nativeName})`}
          </option>
        ))}
      </select>
    </label>
  );
}
