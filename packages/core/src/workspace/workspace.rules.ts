/** The system lead labels every workspace starts with, and how each one counts. */
export const SYSTEM_LEAD_LABELS = [
  { key: 'INTERESTED', name: 'Interested', sentiment: 'POSITIVE', icon: 'thumbs-up' },
  { key: 'NOT_INTERESTED', name: 'Not interested', sentiment: 'NEGATIVE', icon: 'thumbs-down' },
  { key: 'OUT_OF_OFFICE', name: 'Out of office', sentiment: 'NEUTRAL', icon: 'plane' },
  { key: 'AUTOMATIC_REPLY', name: 'Automatic reply', sentiment: 'NEUTRAL', icon: 'bot' },
  { key: 'MEETING_BOOKED', name: 'Meeting booked', sentiment: 'POSITIVE', icon: 'calendar' },
  { key: 'MEETING_COMPLETED', name: 'Meeting completed', sentiment: 'POSITIVE', icon: 'calendar-check' },
  { key: 'WRONG_PERSON', name: 'Wrong person', sentiment: 'NEUTRAL', icon: 'user-x' },
  { key: 'CLOSED', name: 'Closed', sentiment: 'POSITIVE', icon: 'trophy' },
] as const;
