import { describeTheExamplesAgainst } from './example-suite';

describeTheExamplesAgainst('development');
