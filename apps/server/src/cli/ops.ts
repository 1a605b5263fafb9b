import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fenToYuan } from '@sitemall/contract';
import { readConfig } from '../config';
import { openDatabase } from '../db/client';
import { AppError } from '../lib/errors';
import { checkBooks } from '../modules/admin/books';
import { refundOrder, shipChildOrder } from '../modules/order/fulfilment';
import { issueFromCsv, issuePoints, reportCsv, yuanToFen } from '../modules/points/issue';
import { progressBar } from './progress';

/**
 * npm run ops -- <command>: what operators do from a shell, on the database the server uses
 * (DATABASE_URL, or PGlite under DATA_DIR: stop the server first, PGlite has one owner).
 * This file only reads arguments and prints; the rules live in the services it calls.
 */
const USAGE = `Usage: npm run ops -- <command> [options]

  issue-points --site <id> --phone <mobile>|--username <name> --amount <yuan> [--note <text>] [--request-id <id>]
  issue-points --site <id> --csv <file.csv>
      CSV rows: phone (or username),amount in yuan,note[,requestId]; a header row is optional.
      Each row applies once, however often the file is run. Report: <file>.report.csv
  ship --site <id> --child-order <childOrderNo> --company <name> --tracking <trackingNo>
  refund --site <id> --order <orderNo> [--reason <text>]
      Cancels a paid order of which nothing has shipped (status 4) and gives the points back.
  check-books [--site <id>]
      Whether the books add up (balances against their ledgers, refunds against payments);
      exits 1 and lists what does not.
`;

class UsageError extends Error {}

const { positionals, values } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        site: { type: 'string' },
        phone: { type: 'string' },
        username: { type: 'string' },
        amount: { type: 'string' },
        note: { type: 'string' },
        'request-id': { type: 'string' },
        csv: { type: 'string' },
        'child-order': { type: 'string' },
        company: { type: 'string' },
        tracking: { type: 'string' },
        order: { type: 'string' },
        reason: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
})();

function need(name: keyof typeof values): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

function siteId(): number {
  const id = Number(need('site'));
  if (!Number.isInteger(id) || id < 1) throw new UsageError('--site must be a site id');
  return id;
}

const command = positionals[0];
if (values.help || !command) {
  process.stdout.write(USAGE);
  process.exit(command || values.help ? 0 : 2);
}
if (!['issue-points', 'ship', 'refund', 'check-books'].includes(command)) {
  process.stderr.write(`unknown command "${command}"\n\n${USAGE}`);
  process.exit(2);
}

const config = readConfig();
const database = await openDatabase(config);
let exitCode = 0;
try {
  await database.migrate();
  const { db } = database;
  switch (command) {
    case 'issue-points': {
      const site = siteId();
      if (values.csv) {
        const file = path.resolve(values.csv);
        const text = await readFile(file, 'utf8');
        const bar = progressBar('issue-points');
        const reports = await issueFromCsv(db, {
          siteId: site,
          fileName: path.basename(file),
          text,
          onProgress: bar.update,
        });
        const reportFile = `${file}.report.csv`;
        await writeFile(reportFile, `\uFEFF${reportCsv(reports)}`);
        for (const r of reports)
          console.log(`line ${r.line}\t${r.account}\t${r.amount}\t${r.result}\t${r.detail}`);
        const failed = reports.filter((r) => r.result === 'error').length;
        const issued = reports.filter((r) => r.result === 'ok' && r.detail === '已发放');
        const total = issued.reduce((s, r) => s + (yuanToFen(r.amount) ?? 0), 0);
        console.log(
          `${reports.length} rows: ${issued.length} issued (${fenToYuan(total)}), ${reports.length - failed - issued.length} already issued, ${failed} refused. Report: ${reportFile}`,
        );
        if (failed > 0) exitCode = 1;
        break;
      }
      const account = values.phone ?? values.username;
      if (!account) throw new UsageError('--phone, --username or --csv is required');
      const amount = yuanToFen(need('amount'));
      if (amount === undefined)
        throw new UsageError('--amount must be yuan with at most 2 decimals, above 0');
      const requestId = values['request-id'];
      const issued = await issuePoints(db, {
        siteId: site,
        account,
        amount,
        note: values.note,
        requestKey: requestId ? `issue:${requestId}` : undefined,
      });
      console.log(
        `${issued.isNew ? 'Issued' : 'Already issued (nothing changed):'} ${fenToYuan(amount)} to ${account} (member ${issued.memberId}), entry ${issued.entry.id}, balance ${fenToYuan(issued.entry.balanceAfter)}`,
      );
      break;
    }
    case 'ship': {
      const shipped = await shipChildOrder(db, {
        siteId: siteId(),
        childOrderNo: need('child-order'),
        company: need('company'),
        trackingNo: need('tracking'),
      });
      console.log(
        `${shipped.isNew ? 'Shipped' : 'Already shipped (nothing changed):'} child order ${shipped.childOrderNo} of ${shipped.orderNo}: ${shipped.shipment.company} ${shipped.shipment.trackingNo}${shipped.isOrderShipped ? '; the whole order is shipped' : '; other child orders wait'}`,
      );
      break;
    }
    case 'refund': {
      const refunded = await refundOrder(db, {
        siteId: siteId(),
        orderNo: need('order'),
        reason: values.reason,
      });
      console.log(
        `${refunded.isNew ? 'Refunded' : 'Already refunded (nothing changed):'} ${fenToYuan(refunded.refunded)} for order ${refunded.orderNo}, status ${refunded.status}`,
      );
      break;
    }
    case 'check-books': {
      const report = await checkBooks({ db }, values.site ? [siteId()] : 'all');
      for (const check of report.checks) {
        const verdict = check.problems.length === 0 ? 'ok' : `${check.problems.length} NOT ADDING UP`;
        console.log(
          `${check.key.padEnd(16)} ${String(check.checked).padStart(8)} checked  ${verdict}  ${check.label}`,
        );
        for (const p of check.problems)
          console.log(
            `  site ${p.siteId} ${p.subject}: expected ${fenToYuan(p.expected)}, is ${fenToYuan(p.actual)}`,
          );
      }
      if (report.checks.some((c) => c.problems.length > 0)) exitCode = 1;
      break;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n\n${USAGE}`);
    exitCode = 2;
  } else if (error instanceof AppError) {
    process.stderr.write(`Refused: ${error.msg}\n`);
    exitCode = 1;
  } else {
    throw error;
  }
} finally {
  await database.close();
}
process.exitCode = exitCode;
