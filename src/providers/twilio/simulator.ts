import { randomBytes } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';

/**
 * A Twilio Messages API simulator, in Twilio's wire format, for the embedded default (`SMS_SIMULATOR`) and the
 * tests: `POST /2010-04-01/Accounts/{sid}/Messages.json` (form-encoded To, From, Body; HTTP basic auth
 * `AccountSid:AuthToken`) answers 201 with the message resource, and `GET` of the same path lists what it
 * received, newest first, in Twilio's list envelope. Errors are Twilio's `{code, message, more_info, status}`.
 *
 * Any account sid / auth token pair is accepted, as long as the sid in the path is the one that authenticated.
 * Nothing leaves the process: the messages are kept in memory (the latest 1,000).
 */
export const TWILIO_SIMULATOR_PATH = '/simulators/twilio';
/** Credentials the embedded default uses with the simulator. */
export const SIMULATOR_ACCOUNT = { accountSid: 'AC00000000000000000000000000000000', authToken: 'simulator', fromNumber: '+15005550006' };

export interface SimulatedMessage {
  sid: string;
  account_sid: string;
  to: string;
  from: string;
  body: string;
  status: string;
  num_segments: string;
  direction: 'outbound-api';
  api_version: '2010-04-01';
  date_created: string;
  date_updated: string;
  uri: string;
}

export interface TwilioRefusal {
  status: number;
  code: number;
  message: string;
  /** Seconds, sent as `Retry-After` (Twilio's 429s carry one). */
  retryAfter?: number;
}

export interface TwilioSimulatorOptions {
  /** Tests: refuse a message (a Twilio error answer) instead of accepting it. */
  refuse?: (input: { to: string; from: string; body: string }) => TwilioRefusal | null;
  keep?: number;
}

const ADDRESS = /^(whatsapp:)?\+[1-9]\d{1,14}$/;
const MAX_BODY = 1600;

const rfc2822 = (d: Date): string => d.toUTCString().replace('GMT', '+0000');

function twilioError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
}

function basicAuth(req: Request): { user: string; pass: string } | null {
  const header = req.headers.authorization;
  if (!header || !header.startsWith('Basic ')) return null;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 1) return null;
  return { user: decoded.slice(0, i), pass: decoded.slice(i + 1) };
}

export class TwilioSimulator {
  readonly router: Router;
  readonly messages: SimulatedMessage[] = [];
  private readonly keep: number;

  constructor(private readonly opts: TwilioSimulatorOptions = {}) {
    this.keep = opts.keep ?? 1_000;
    const router = express.Router();
    router.use(express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 50 }));
    router.post('/2010-04-01/Accounts/:sid/Messages.json', (req, res) => this.create(req, res));
    router.get('/2010-04-01/Accounts/:sid/Messages.json', (req, res) => this.list(req, res));
    this.router = router;
  }

  /** Messages sent to `to` (an E.164 number, with or without the `whatsapp:` prefix as sent). */
  to(to: string): SimulatedMessage[] {
    return this.messages.filter((m) => m.to === to);
  }

  private authenticated(req: Request, res: Response): string | null {
    const auth = basicAuth(req);
    const sid = String(req.params.sid);
    if (!auth || !auth.pass || auth.user !== sid) {
      twilioError(res, 401, 20003, 'Authenticate');
      return null;
    }
    return sid;
  }

  private create(req: Request, res: Response): void {
    const sid = this.authenticated(req, res);
    if (!sid) return;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const to = typeof body.To === 'string' ? body.To.trim() : '';
    const from = typeof body.From === 'string' ? body.From.trim() : '';
    const text = typeof body.Body === 'string' ? body.Body : '';
    if (!to) return twilioError(res, 400, 21604, "A 'To' phone number is required.");
    if (!ADDRESS.test(to)) return twilioError(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (!from) return twilioError(res, 400, 21603, "A 'From' phone number is required.");
    if (!ADDRESS.test(from)) return twilioError(res, 400, 21212, `The 'From' number ${from} is not a valid phone number.`);
    if (!text) return twilioError(res, 400, 21602, 'Message body is required.');
    if (text.length > MAX_BODY) return twilioError(res, 400, 21617, 'The concatenated message body exceeds the 1600 character limit.');
    const refusal = this.opts.refuse?.({ to, from, body: text });
    if (refusal) {
      if (refusal.retryAfter !== undefined) res.setHeader('Retry-After', String(refusal.retryAfter));
      return twilioError(res, refusal.status, refusal.code, refusal.message);
    }
    const now = rfc2822(new Date());
    const messageSid = `SM${randomBytes(16).toString('hex')}`;
    const message: SimulatedMessage = {
      sid: messageSid,
      account_sid: sid,
      to,
      from,
      body: text,
      status: 'queued',
      num_segments: String(Math.max(1, Math.ceil(text.length / 153))),
      direction: 'outbound-api',
      api_version: '2010-04-01',
      date_created: now,
      date_updated: now,
      uri: `/2010-04-01/Accounts/${sid}/Messages/${messageSid}.json`,
    };
    this.messages.push(message);
    if (this.messages.length > this.keep) this.messages.splice(0, this.messages.length - this.keep);
    res.status(201).json(message);
  }

  private list(req: Request, res: Response): void {
    const sid = this.authenticated(req, res);
    if (!sid) return;
    const pageSize = Math.min(1000, Math.max(1, Number(req.query.PageSize) || 50));
    const mine = this.messages.filter((m) => m.account_sid === sid && (typeof req.query.To !== 'string' || m.to === req.query.To)).reverse();
    const uri = `/2010-04-01/Accounts/${sid}/Messages.json?PageSize=${pageSize}&Page=0`;
    res.json({
      messages: mine.slice(0, pageSize),
      page: 0,
      page_size: pageSize,
      uri,
      first_page_uri: uri,
      next_page_uri: null,
      previous_page_uri: null,
      start: 0,
      end: Math.max(0, Math.min(pageSize, mine.length) - 1),
    });
  }
}

let shared: TwilioSimulator | null = null;

/** The process's simulator (mounted by `simulatorsRouter` while SMS_SIMULATOR is on). */
export function twilioSimulator(): TwilioSimulator {
  shared ??= new TwilioSimulator();
  return shared;
}
