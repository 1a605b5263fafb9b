import { App } from 'antd';

/**
 * Runs a console write with its toasts: the success message (a text, or made from the answer)
 * and then `after` with the answer, or the server's refusal. True when it went through, so a ModalForm's
 * onFinish can return it (the form closes on true).
 */
export function useWrite() {
  const { message } = App.useApp();
  return async <T>(
    work: () => Promise<T>,
    done: string | ((answer: T) => string),
    after?: (answer: T) => void,
  ): Promise<boolean> => {
    try {
      const answer = await work();
      message.success(typeof done === 'string' ? done : done(answer));
      after?.(answer);
      return true;
    } catch (e) {
      message.error((e as Error).message);
      return false;
    }
  };
}

/** A write from a list's row or toolbar: its toasts as useWrite, and the list reloads either way. */
export function useRun(reload: () => void) {
  const write = useWrite();
  return async (work: () => Promise<unknown>, done: string): Promise<boolean> => {
    try {
      return await write(work, done);
    } finally {
      reload();
    }
  };
}
