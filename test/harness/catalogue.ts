// How many tools the catalogue has, from the generated index itself: tests that count a
// served list compare it with these instead of a number typed in when the count was 74.
import { tools } from '../../generated/index.js';

export const CATALOGUE_SIZE = tools.length;
export const READ_ONLY_SIZE = tools.filter((tool) => tool.annotations.readOnlyHint).length;
export const ESSENTIAL_SIZE = tools.filter((tool) => tool.essential).length;
