import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/**
 * docker-compose.yml publishes the API on every interface (or API_BIND) and the operator's tools on loopback only: Temporal's
 * frontend and UI, Mailpit's UI, Prometheus and Grafana ask no one who is calling, and the mail they show carries
 * links that act as credentials.
 */
describe('the ports docker-compose.yml publishes', () => {
  const compose = parse(readFileSync(path.resolve(__dirname, '..', '..', 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, { ports?: string[]; environment?: Record<string, string> }>;
  };

  it('are the API on every interface and every other service on 127.0.0.1 only', () => {
    const published = Object.entries(compose.services).flatMap(([service, s]) => (s.ports ?? []).map((port) => [service, port] as const));
    expect(published.map(([service]) => service).sort()).toEqual(['api', 'grafana', 'mailpit', 'prometheus', 'temporal', 'temporal-ui']);
    for (const [service, port] of published) {
      if (service === 'api') expect(port).toBe('${API_BIND:-0.0.0.0}:${API_PORT:-3000}:3000');
      else expect([service, port.startsWith('127.0.0.1:')]).toEqual([service, true]);
    }
  });

  it('leave no sign-in to Grafana: its default admin account (admin/admin) cannot be used, the dashboards are read anonymously', () => {
    const env = compose.services.grafana.environment ?? {};
    expect(env).toMatchObject({ GF_AUTH_DISABLE_LOGIN_FORM: 'true', GF_AUTH_BASIC_ENABLED: 'false', GF_AUTH_ANONYMOUS_ORG_ROLE: 'Viewer' });
  });
});
