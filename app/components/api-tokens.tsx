import { Form, useNavigation } from '@remix-run/react';
import { useEffect } from 'react';
import { toast } from 'react-toastify';

/** What the profile action answers when a token was made: the only time its value is shown. */
export interface TokenResult {
  success: true;
  message: string;
  intent: 'create-token';
  token: string;
}

export interface TokenRow {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

const day = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
  });

/**
 * The profile's API tokens (ADR 0035): make one (shown once, to copy), see each one's name, when
 * it was made and last used, and revoke it. Works without JavaScript.
 */
export function ApiTokens({
  tokens,
  max,
  result,
}: {
  tokens: TokenRow[];
  max: number;
  result: TokenResult | undefined;
}) {
  const navigation = useNavigation();
  const creating = navigation.formData?.get('intent') === 'create-token';
  useEffect(() => {
    if (result) toast.success(result.message);
  }, [result]);
  return (
    <div className="auth-card card api-tokens" data-testid="api-tokens">
      <h2>API tokens</h2>
      <p className="hint">
        A token lets your own programs call the API as you (<code>Authorization: Bearer …</code>;
        see <a href="/api/docs">the API documentation</a>). At most {max}; a new password revokes
        them all.
      </p>
      {result ? (
        <div className="new-token" role="status">
          <strong>{result.message}</strong>
          <input
            readOnly
            aria-label="Your new API token"
            data-testid="new-api-token"
            value={result.token}
            onFocus={(event) => event.currentTarget.select()}
          />
        </div>
      ) : null}
      {tokens.length > 0 ? (
        <ul className="api-token-list">
          {tokens.map((token) => (
            <li key={token.id} data-testid="api-token">
              <span>
                <strong>{token.name}</strong>
                <span className="hint">
                  Made {day(token.createdAt)} UTC ·{' '}
                  {token.lastUsedAt ? `last used ${day(token.lastUsedAt)} UTC` : 'never used'}
                </span>
              </span>
              <Form method="post">
                <input type="hidden" name="intent" value="revoke-token" />
                <input type="hidden" name="tokenId" value={token.id} />
                <button type="submit" className="button" aria-label={`Revoke ${token.name}`}>
                  Revoke
                </button>
              </Form>
            </li>
          ))}
        </ul>
      ) : (
        <p className="hint">You have no API tokens.</p>
      )}
      {tokens.length < max ? (
        <Form method="post" className="form">
          <input type="hidden" name="intent" value="create-token" />
          <label>
            Token name
            <input
              name="tokenName"
              type="text"
              maxLength={60}
              placeholder="e.g. My laptop script"
            />
          </label>
          <button type="submit" className="button primary" disabled={creating}>
            Create token
          </button>
        </Form>
      ) : null}
    </div>
  );
}
