/** The public forms' island: the behaviour lives with the forms (forms/form-island.ts), which the footer's newsletter box loads too. */
export { mount } from '../../forms/form-island.ts';
