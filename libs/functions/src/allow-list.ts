// The one allow-list matcher lives with the protocol, so the run engine can use it without the bus.
export { allowsEverything, isAllowed } from '@app/protocol/portable';
