// Original file: proto/platform/jobs/v1/jobs.proto


export interface JobLogLine {
  'attempt'?: (number);
  'at'?: (string);
  'line'?: (string);
}

export interface JobLogLine__Output {
  'attempt': (number);
  'at': (string);
  'line': (string);
}
