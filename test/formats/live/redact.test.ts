/** What `watch` drops before anything is written or shown: credential headers, query parameters and attributes. */
import { describe, expect, it } from 'vitest';
import { isCredentialName, redactHeaders, redactOtlp, redactPathQuery } from '../../../src/formats/live/redact.js';

describe('redactHeaders', () => {
  it('drops credentials and session state, keeps the rest (names lowercased)', () => {
    const { kept, dropped } = redactHeaders({
      Authorization: 'Bearer sk-1',
      'Proxy-Authorization': 'Basic eA==',
      'x-api-key': 'sk-ant',
      'api-key': 'azure',
      'x-goog-api-key': 'AIza',
      Cookie: 'a=b',
      'set-cookie': ['a=b', 'c=d'],
      'x-auth-token': 't',
      'x-session-id': 's',
      'anthropic-version': '2023-06-01',
      'Content-Type': 'application/json',
      'openai-organization': 'org-1',
      accept: ['a', 'b'],
      'x-absent': undefined,
    });
    expect(kept).toEqual({
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
      'openai-organization': 'org-1',
      accept: 'a, b',
    });
    expect(dropped).toEqual([
      'authorization',
      'proxy-authorization',
      'x-api-key',
      'api-key',
      'x-goog-api-key',
      'cookie',
      'set-cookie',
      'x-auth-token',
      'x-session-id',
    ]);
  });

  it('names: key, token, secret, auth, session, cookie, password, credential in any case', () => {
    for (const n of ['KEY', 'x-Token', 'client_secret', 'OAuth', 'sessionid', 'Cookie2', 'password', 'credentials'])
      expect(isCredentialName(n)).toBe(true);
    for (const n of ['content-type', 'user-agent', 'anthropic-beta', 'openai-project', 'x-request-id'])
      expect(isCredentialName(n)).toBe(false);
  });
});

describe('redactPathQuery', () => {
  it.each([
    [
      '/v1beta/models/gemini:streamGenerateContent?alt=sse&key=AIza-secret',
      '/v1beta/models/gemini:streamGenerateContent?alt=sse',
    ],
    ['/v1/x?key=1', '/v1/x'],
    ['/v1/x?api%5Fkey=1&b=2', '/v1/x?b=2'],
    ['/v1/x?access_token=1&token=2&a=', '/v1/x?a='],
    ['/v1/chat/completions', '/v1/chat/completions'],
    ['/v1/x?', '/v1/x'],
  ])('%s -> %s', (given, kept) => {
    expect(redactPathQuery(given)).toBe(kept);
  });
});

describe('redactOtlp', () => {
  it('drops credential attributes of spans, events, resources and scopes; keeps GenAI token counts', () => {
    const kv = (key: string, v: string) => ({ key, value: { stringValue: v } });
    const input = {
      resourceSpans: [
        {
          resource: { attributes: [kv('service.name', 'agent'), kv('api.key', 'SECRET1')] },
          scopeSpans: [
            {
              scope: { name: 's', attributes: [kv('auth', 'SECRET2')] },
              spans: [
                {
                  traceId: 't',
                  attributes: [
                    kv('http.request.header.authorization', 'SECRET3'),
                    kv('http.request.header.x-api-key', 'SECRET4'),
                    kv('url.full', 'https://g.example/v1?alt=sse&key=SECRET5'),
                    kv('url.query', 'key=SECRET6&alt=sse'),
                    { key: 'gen_ai.usage.input_tokens', value: { intValue: 3 } },
                    { key: 'ai.usage.promptTokens', value: { intValue: 3 } },
                    { key: 'llm.token_count.prompt', value: { intValue: 3 } },
                    kv('gen_ai.input.messages', '[]'),
                  ],
                  events: [{ name: 'e', attributes: [kv('cookie', 'SECRET7'), kv('x', 'y')] }],
                },
              ],
            },
          ],
        },
      ],
    };
    const out = redactOtlp(input);
    expect(JSON.stringify(out)).not.toMatch(/SECRET/);
    expect(out).toEqual({
      resourceSpans: [
        {
          resource: { attributes: [kv('service.name', 'agent')] },
          scopeSpans: [
            {
              scope: { name: 's', attributes: [] },
              spans: [
                {
                  traceId: 't',
                  attributes: [
                    kv('url.full', 'https://g.example/v1?alt=sse'),
                    kv('url.query', 'alt=sse'),
                    { key: 'gen_ai.usage.input_tokens', value: { intValue: 3 } },
                    { key: 'ai.usage.promptTokens', value: { intValue: 3 } },
                    { key: 'llm.token_count.prompt', value: { intValue: 3 } },
                    kv('gen_ai.input.messages', '[]'),
                  ],
                  events: [{ name: 'e', attributes: [kv('x', 'y')] }],
                },
              ],
            },
          ],
        },
      ],
    });
  });
});
