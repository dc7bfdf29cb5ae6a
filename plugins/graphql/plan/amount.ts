/** `amountLimit`: how many items one list field may answer, its aliases added up. */
import { type AppError, isAppError, validationError } from '../../../core/index.ts';

export const amountLimitError = (name: string, amountLimit: number): AppError =>
  validationError(`${name}: at most ${amountLimit} items may be asked for (amountLimit)`, { key: name, amountLimit });

/** Whether an error is the refusal above (answered 400 for the whole request). */
export const isAmountLimit = (err: unknown): err is AppError => isAppError(err) && 'amountLimit' in err.details;
