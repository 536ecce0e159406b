import { statsPage } from './stats-page.js';

statsPage({ id: 'transaction', label: 'Transaction', durations: true });
