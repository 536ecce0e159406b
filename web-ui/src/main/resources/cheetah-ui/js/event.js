import { statsPage } from './stats-page.js';

statsPage({ id: 'event', label: 'Event', durations: false });
