import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { selectAgentState, type agentMachine } from '../../../machines/agent.ts';
import type { ActorRefFrom } from 'xstate';
import { useQuery } from '@tanstack/react-query';
import { settingsQuery } from '../../api/queries.ts';
import { requests } from '../../app/services.ts';
import type { ConversationStream } from '../../realtime/types.ts';
import { agentFinished, isRecent, playFinishSound } from './finish-sound.ts';

/**
 * Plays the finish sound when the user turned sound notifications on and the agent finishes now
 * (not when the history of an earlier run is replayed on opening the conversation).
 */
export function useFinishSound(agent: ActorRefFrom<typeof agentMachine>, stream: ConversationStream) {
  // A conversation is open: someone is signed in, so the settings can be asked for.
  const enabled = useQuery(settingsQuery(requests)).data?.enable_sound_notifications === true;
  const state = useSelector(agent, selectAgentState);
  const previous = useRef(state);
  useEffect(() => {
    const finished = agentFinished(previous.current, state);
    previous.current = state;
    const last = stream.getSnapshot().events.at(-1);
    if (enabled && finished && isRecent(last?.timestamp, Date.now())) playFinishSound();
  }, [state, enabled, stream]);
}
