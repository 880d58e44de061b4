import { describeTheExamplesAgainst } from './example-suite';

describeTheExamplesAgainst('production');
